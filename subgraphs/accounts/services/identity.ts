import type { EntityManager } from '@mikro-orm/postgresql';
import type { Identity } from '../../../shared/context.js';
import { sha256Hex } from '../../../shared/crypto.js';
import { unauthorized } from '../../../shared/errors.js';
import type { PlatformServices } from '../../../shared/services.js';
import { verifyAccessToken } from './access-tokens.js';
import { API_KEY_PREFIX } from './api-keys.js';
import { apiKeyIdentitiesOf } from './api-key-identities.js';

interface IdentityRow {
  user_id: string;
  email: string | null;
  email_verified: boolean;
  kind: 'user' | 'agent';
  organization_id: string;
  revoked_at: Date | null;
  key_id?: string;
  last_used_at?: Date | null;
}

const SESSION_SQL = `
  select u.id as user_id, u.email, u.email_verified, u.kind, u.default_organization_id as organization_id, s.revoked_at
  from account_session s join account_user u on u.id = s.user_id
  where s.id = ? and s.user_id = ?`;

const API_KEY_SQL = `
  select k.id as key_id, k.organization_id, k.revoked_at, k.last_used_at,
         u.id as user_id, u.email, u.email_verified, u.kind
  from account_api_key k join account_user u on u.id = k.user_id
  where k.key_hash = ?`;

const LAST_USED_RESOLUTION_MS = 60_000;

function identityOf(row: IdentityRow, credential: Identity['credential'], sessionId: string | null): Identity {
  return {
    userId: row.user_id,
    organizationId: row.organization_id,
    email: row.email,
    emailVerified: row.email_verified,
    kind: row.kind,
    credential,
    sessionId,
    apiKeyId: row.key_id ?? null,
  };
}

/** Resolves `Bearer <access token | API key>` to an identity, or a 401. One indexed lookup either way (none for a recently seen key). */
export async function resolveBearerCredential(em: EntityManager, token: string, services: PlatformServices): Promise<Identity> {
  if (token.startsWith(API_KEY_PREFIX)) return resolveApiKey(em, sha256Hex(token), services);
  const claims = await verifyAccessToken(services.config.secrets.JWT_SECRET, token);
  const [row] = (await em.getConnection().execute(SESSION_SQL, [claims.sessionId, claims.userId])) as IdentityRow[];
  if (!row || row.revoked_at) throw unauthorized('This session has ended; sign in again', 'session_revoked');
  return identityOf(row, 'access_token', claims.sessionId);
}

async function resolveApiKey(em: EntityManager, keyHash: string, services: PlatformServices): Promise<Identity> {
  const remembered = apiKeyIdentitiesOf(em);
  const known = remembered.get(keyHash);
  if (known) return known;
  const connection = em.getConnection();
  const [row] = (await connection.execute(API_KEY_SQL, [keyHash])) as IdentityRow[];
  if (!row || row.revoked_at) throw unauthorized('Invalid API key', 'invalid_api_key');
  if (!row.last_used_at || Date.now() - new Date(row.last_used_at).getTime() > LAST_USED_RESOLUTION_MS) {
    connection
      .execute('update account_api_key set last_used_at = now() where id = ?', [row.key_id])
      .catch((error) => services.log.warn({ err: error }, 'could not record API key use'));
  }
  const identity = identityOf(row, 'api_key', null);
  remembered.remember(keyHash, identity, services.config.apiKeyCacheSeconds);
  return identity;
}
