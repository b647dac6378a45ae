import type { RequestContext } from '../../../shared/context.js';
import { requireUserSession } from '../../../shared/context.js';
import { badRequest, forbidden, notFound } from '../../../shared/errors.js';
import { UserAccount } from '../entities/user.js';
import { runAfterResponse } from './background.js';
import { forgetApiKeyIdentities } from './api-key-identities.js';
import { normalizeEmail } from './email-address.js';
import { mailPasswordResetLink } from './email-links.js';
import { createEmailToken, spendEmailToken, spendOutstandingEmailTokens } from './email-tokens.js';
import { revokeApiKeysOf } from './api-keys.js';
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

/**
 * A reset proves control of the mailbox: it also verifies the address, and ends every session and
 * every other e-mail link. When it is the first proof, the API keys go too: they were issued to
 * whoever named the address (an agent can register with anyone's), and the mailbox's owner is
 * taking the account over, so no key issued before stays in a stranger's hands.
 */
export async function resetPassword(context: RequestContext, input: { token: string; newPassword: string }) {
  const userId = await context.em.transactional(async (em) => {
    const spent = await spendEmailToken(em, input.token, 'reset_password', 404);
    const user = await em.findOneOrFail(UserAccount, spent.userId);
    assertStrongPassword(input.newPassword, user.email);
    user.passwordHash = await hashPassword(input.newPassword);
    const firstProof = !user.emailVerified && user.email === spent.email;
    if (user.email === spent.email) user.emailVerified = true;
    await em.flush();
    await revokeSessions(em, user.id, 'password_reset');
    await spendOutstandingEmailTokens(em, user.id, ['reset_password', 'verify_email']);
    if (firstProof) await revokeApiKeysOf(em, user.id);
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
  // A stolen access token must not buy unlimited guesses at the password: the login budget applies.
  await enforceLimit(context, 'loginPerAccount', user.email ?? user.id);
  if (!(await verifyPassword(user.passwordHash, input.currentPassword))) {
    throw badRequest('invalid_current_password', 'The current password is wrong');
  }
  assertStrongPassword(input.newPassword, user.email);
  if (input.newPassword === input.currentPassword) {
    throw badRequest('weak_password', 'The new password must differ from the current one');
  }
  user.passwordHash = await hashPassword(input.newPassword);
  const sessionsRevoked = await context.em.transactional(async (em) => {
    await em.flush();
    // A link mailed before the change (a reset, or a verification that signs in) must not outlive it.
    await spendOutstandingEmailTokens(em, user.id, ['reset_password', 'verify_email']);
    return revokeSessions(em, user.id, 'password_changed');
  });
  return { passwordUpdated: true, sessionsRevoked };
}
