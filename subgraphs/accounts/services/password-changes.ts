import type { RequestContext } from '../../../shared/context.js';
import { requireUserSession } from '../../../shared/context.js';
import { badRequest, forbidden, notFound } from '../../../shared/errors.js';
import { UserAccount } from '../entities/user.js';
import { runAfterResponse } from './background.js';
import { forgetApiKeyIdentities } from './api-key-identities.js';
import { normalizeEmail } from './email-address.js';
import { mailPasswordResetLink } from './email-links.js';
import { createEmailToken, spendEmailToken } from './email-tokens.js';
import { assertStrongPassword, hashPassword, verifyPassword } from './passwords.js';
import { enforceLimit } from './rate-limits.js';
import { revokeSessions } from './sessions.js';

/** Same answer, at once, whether or not the account exists. */
export async function requestPasswordReset(context: RequestContext, emailInput: string) {
  const email = normalizeEmail(emailInput);
  await enforceLimit(context, 'emailPerAddress', context.ip);
  await enforceLimit(context, 'emailPerAccount', `reset:${email}`);
  runAfterResponse(context, 'forgot-password', async (em) => {
    const user = await em.findOne(UserAccount, { email });
    if (!user) return;
    const token = createEmailToken(em, user.id, 'reset_password', email);
    await em.flush();
    await mailPasswordResetLink(context.services, email, token);
  });
  return { message: 'If an account exists for this address, a password reset link has been sent' };
}

/** A reset proves control of the mailbox: it also verifies the address, and ends every session. */
export async function resetPassword(context: RequestContext, input: { token: string; newPassword: string }) {
  const userId = await context.em.transactional(async (em) => {
    const spent = await spendEmailToken(em, input.token, 'reset_password', 404);
    const user = await em.findOneOrFail(UserAccount, spent.userId);
    assertStrongPassword(input.newPassword, user.email);
    user.passwordHash = await hashPassword(input.newPassword);
    if (user.email === spent.email) user.emailVerified = true;
    await em.flush();
    await revokeSessions(em, user.id, 'password_reset');
    return user.id;
  });
  await forgetApiKeyIdentities(context.em, userId, context.services.log);
  return { passwordReset: true };
}

export async function changePassword(context: RequestContext, input: { currentPassword: string; newPassword: string }) {
  const identity = requireUserSession(context);
  const user = await context.em.findOne(UserAccount, identity.userId, { populate: ['passwordHash'] });
  if (!user) throw notFound('User');
  if (!user.passwordHash) throw forbidden('This account has no password login', 'password_login_not_enabled');
  if (!(await verifyPassword(user.passwordHash, input.currentPassword))) {
    throw badRequest('invalid_current_password', 'The current password is wrong');
  }
  assertStrongPassword(input.newPassword, user.email);
  if (input.newPassword === input.currentPassword) {
    throw badRequest('weak_password', 'The new password must differ from the current one');
  }
  user.passwordHash = await hashPassword(input.newPassword);
  await context.em.flush();
  const sessionsRevoked = await revokeSessions(context.em, user.id, 'password_changed');
  return { passwordUpdated: true, sessionsRevoked };
}
