import type { RequestContext } from '../../../shared/context.js';
import { requireIdentity } from '../../../shared/context.js';
import { forbidden, unauthorized } from '../../../shared/errors.js';
import { UserAccount } from '../entities/user.js';
import { normalizeEmail } from './email-address.js';
import { verifyPassword } from './passwords.js';
import { enforceLimit } from './rate-limits.js';
import { revokeSessions, rotateRefreshToken, startSession } from './sessions.js';
import { loadUser } from './users.js';

export async function logIn(context: RequestContext, input: { email: string; password: string }) {
  const email = normalizeEmail(input.email);
  await enforceLimit(context, 'loginPerAddress', context.ip);
  await enforceLimit(context, 'loginPerAccount', email);
  const user = await context.em.findOne(UserAccount, { email }, { populate: ['passwordHash'] });
  const valid = await verifyPassword(user?.passwordHash, input.password);
  if (!user || !valid) throw unauthorized('Invalid e-mail or password', 'invalid_credentials');
  if (!user.emailVerified) {
    throw forbidden('Verify your e-mail address before signing in', 'email_verification_required');
  }
  return startSession(context.em, context.services.config.secrets.JWT_SECRET, user);
}

export async function refreshTokens(context: RequestContext, refreshToken: string | null | undefined) {
  if (!refreshToken) throw unauthorized('A refresh token is required', 'invalid_refresh_token');
  return rotateRefreshToken(context.em, context.services.config.secrets.JWT_SECRET, refreshToken, (id) =>
    loadUser(context.em, id),
  );
}

/** Ends every session of the account (all devices); API keys are unaffected. */
export async function logOut(context: RequestContext) {
  const identity = requireIdentity(context);
  const sessionsRevoked = await revokeSessions(context.em, identity.userId, 'logout');
  return { loggedOut: true, sessionsRevoked };
}
