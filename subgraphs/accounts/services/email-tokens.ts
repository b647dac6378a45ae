import type { EntityManager } from '@mikro-orm/postgresql';
import { randomToken, sha256Hex } from '../../../shared/crypto.js';
import { AppError, badRequest } from '../../../shared/errors.js';
import { EmailToken, type EmailTokenPurpose } from '../entities/email-token.js';

export const EMAIL_TOKEN_TTL_MS: Record<EmailTokenPurpose, number> = {
  verify_email: 24 * 3600 * 1000,
  reset_password: 3600 * 1000,
};

const TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;

/** Well-formed or a 400: a token that cannot be ours is "invalid", a well-formed unknown one "not found". */
export function assertTokenFormat(token: string, code = 'invalid_token'): void {
  if (!TOKEN_FORMAT.test(token)) throw badRequest(code, 'The token is malformed');
}

export function createEmailToken(em: EntityManager, userId: string, purpose: EmailTokenPurpose, email: string): string {
  const token = randomToken(32);
  em.create(EmailToken, {
    userId,
    purpose,
    email,
    tokenHash: sha256Hex(token),
    expiresAt: new Date(Date.now() + EMAIL_TOKEN_TTL_MS[purpose]),
  } as EmailToken);
  return token;
}

/**
 * Spends a single-use token atomically. `unknownStatus` lets a caller answer 404 for a well-formed
 * token that was never issued (reset-password) or 400 (verify-email).
 */
export async function spendEmailToken(
  em: EntityManager,
  token: string,
  purpose: EmailTokenPurpose,
  unknownStatus: 400 | 404 = 400,
): Promise<EmailToken> {
  assertTokenFormat(token);
  const stored = await em.findOne(EmailToken, { tokenHash: sha256Hex(token), purpose });
  if (!stored) {
    throw unknownStatus === 404
      ? new AppError(404, 'token_not_found', 'Token not found')
      : badRequest('invalid_token', 'The token is invalid');
  }
  if (stored.usedAt) throw badRequest('token_already_used', 'This link has already been used');
  if (stored.expiresAt.getTime() <= Date.now()) throw badRequest('token_expired', 'This link has expired');
  const spent = await em.nativeUpdate(EmailToken, { id: stored.id, usedAt: null }, { usedAt: new Date() });
  if (spent !== 1) throw badRequest('token_already_used', 'This link has already been used');
  return stored;
}

/**
 * Spends every link of the user still outstanding for `purposes`: once one has done its work (a
 * reset, a verification) or the password changed, an older link must not do it again.
 */
export async function spendOutstandingEmailTokens(em: EntityManager, userId: string, purposes: EmailTokenPurpose[]): Promise<void> {
  await em.nativeUpdate(EmailToken, { userId, purpose: { $in: purposes }, usedAt: null }, { usedAt: new Date() });
}
