import type { EntityManager } from '@mikro-orm/postgresql';
import { randomToken, sha256Hex } from '../../../shared/crypto.js';
import { unauthorized } from '../../../shared/errors.js';
import { AuthSession, RefreshToken } from '../entities/session.js';
import type { UserAccount } from '../entities/user.js';
import { ACCESS_TOKEN_TTL_SECONDS, signAccessToken } from './access-tokens.js';

export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 3600 * 1000;

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  tokenType: 'Bearer';
  expiresIn: number;
  user: UserAccount;
}

async function tokenPair(em: EntityManager, secret: string, session: AuthSession, user: UserAccount): Promise<IssuedTokens> {
  const refreshToken = randomToken(32);
  em.create(RefreshToken, {
    sessionId: session.id,
    tokenHash: sha256Hex(refreshToken),
    expiresAt: new Date(Date.now() + REFRESH_TOKEN_TTL_MS),
  } as RefreshToken);
  await em.flush();
  const accessToken = await signAccessToken(secret, { userId: user.id, sessionId: session.id });
  return { accessToken, refreshToken, tokenType: 'Bearer', expiresIn: ACCESS_TOKEN_TTL_SECONDS, user };
}

/** A new sign-in: a new session (token family) with its first refresh token. */
export async function startSession(em: EntityManager, secret: string, user: UserAccount): Promise<IssuedTokens> {
  const session = em.create(AuthSession, { userId: user.id } as AuthSession);
  return tokenPair(em, secret, session, user);
}

export async function revokeSessions(em: EntityManager, userId: string, reason: string): Promise<number> {
  return em.nativeUpdate(AuthSession, { userId, revokedAt: null }, { revokedAt: new Date(), revokedReason: reason });
}

async function revokeFamily(em: EntityManager, sessionId: string, reason: string) {
  await em.nativeUpdate(AuthSession, { id: sessionId, revokedAt: null }, { revokedAt: new Date(), revokedReason: reason });
}

/**
 * Single-use rotation: a refresh token is spent by an atomic `used_at IS NULL` update. Presenting a
 * spent token (a replay, or the loser of a race) revokes its whole family.
 */
export async function rotateRefreshToken(
  em: EntityManager,
  secret: string,
  presented: string,
  loadUser: (userId: string) => Promise<UserAccount | null>,
): Promise<IssuedTokens> {
  const stored = await em.findOne(RefreshToken, { tokenHash: sha256Hex(presented) });
  if (!stored) throw unauthorized('Invalid refresh token', 'invalid_refresh_token');
  const session = await em.findOneOrFail(AuthSession, stored.sessionId);
  if (session.revokedAt) throw unauthorized('Refresh token has been revoked', 'refresh_token_revoked');
  if (stored.usedAt) {
    await revokeFamily(em, session.id, 'refresh_token_reuse');
    throw unauthorized('Refresh token was already used; all tokens of this sign-in are revoked', 'refresh_token_reused');
  }
  if (stored.expiresAt.getTime() <= Date.now()) throw unauthorized('Refresh token expired', 'refresh_token_expired');
  const spent = await em.nativeUpdate(RefreshToken, { id: stored.id, usedAt: null }, { usedAt: new Date() });
  if (spent !== 1) {
    await revokeFamily(em, session.id, 'refresh_token_reuse');
    throw unauthorized('Refresh token was already used; all tokens of this sign-in are revoked', 'refresh_token_reused');
  }
  const user = await loadUser(session.userId);
  if (!user) throw unauthorized('Account no longer exists', 'invalid_refresh_token');
  return tokenPair(em, secret, session, user);
}
