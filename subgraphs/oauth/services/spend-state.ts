import type { EntityManager } from '@mikro-orm/postgresql';
import { sha256Hex } from '../../../shared/crypto.js';
import { badRequest } from '../../../shared/errors.js';
import { OAuthAuthorizationState } from '../entities/authorization-state.js';

export const invalidState = (why: string) => badRequest('invalid_state', `The state ${why}; start the authorization again`);

/**
 * Spends the state: the first callback presenting it takes it (one conditional update), so a
 * replayed one finds it spent. Missing, unknown (forged), spent, expired, or made for another
 * provider: 400, and nobody is redirected anywhere.
 */
export async function spendState(em: EntityManager, state: unknown): Promise<OAuthAuthorizationState> {
  if (typeof state !== 'string' || state === '' || state.length > 200) throw invalidState('is missing');
  const [row] = await em.execute<Record<string, any>[]>(
    `update oauth_authorization_state set used_at = now() where state_hash = ? and used_at is null returning *`,
    [sha256Hex(state)],
  );
  if (!row) throw invalidState('is unknown or was used already');
  const spent = em.map(OAuthAuthorizationState, row);
  if (spent.expiresAt.getTime() <= Date.now()) throw invalidState('has expired');
  return spent;
}
