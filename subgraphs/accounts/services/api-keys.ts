import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../../shared/context.js';
import { requireUserSession } from '../../../shared/context.js';
import { randomToken, sha256Hex } from '../../../shared/crypto.js';
import { badRequest, conflict, notFound } from '../../../shared/errors.js';
import { isUuid } from '../../../shared/ids.js';
import { ApiKey } from '../entities/api-key.js';
import { requireManagedOrganization, roleIn } from './organizations.js';
import { forgetApiKeyIdentities } from './api-key-identities.js';

export const API_KEY_PREFIX = 'ak_';
export const MAX_ACTIVE_KEYS_PER_ORGANIZATION = 50;

/** Creates a key; the secret is returned here once and only its SHA-256 is kept. */
export function issueApiKey(em: EntityManager, userId: string, organizationId: string, name: string) {
  const secret = `${API_KEY_PREFIX}${randomToken(32)}`;
  const apiKey = em.create(ApiKey, {
    userId,
    organizationId,
    name,
    prefix: secret.slice(0, API_KEY_PREFIX.length + 6),
    keyHash: sha256Hex(secret),
  } as ApiKey);
  return { apiKey, secret };
}

/** `organizationId` null, or the word "default" in REST, means the caller's default organization. */
function organizationOf(context: RequestContext, organizationId?: string | null): string {
  const identity = requireUserSession(context);
  const id = organizationId ?? identity.organizationId;
  if (!isUuid(id)) throw notFound('Organization');
  return id;
}

export async function listApiKeys(context: RequestContext, organizationId?: string | null) {
  const identity = requireUserSession(context);
  const id = organizationOf(context, organizationId);
  if (!(await roleIn(context.em, identity.userId, id))) throw notFound('Organization');
  return context.em.find(ApiKey, { organizationId: id }, { orderBy: { createdAt: 'desc', id: 'desc' } });
}

export async function createApiKey(context: RequestContext, input: { name: string; organizationId?: string | null }) {
  const identity = requireUserSession(context);
  const id = organizationOf(context, input.organizationId);
  const name = input.name.trim();
  if (name.length < 1 || name.length > 100) throw badRequest('invalid_name', 'Key name must be 1 to 100 characters');
  await requireManagedOrganization(context, identity.userId, id);
  const active = await context.em.count(ApiKey, { organizationId: id, revokedAt: null });
  if (active >= MAX_ACTIVE_KEYS_PER_ORGANIZATION) {
    throw conflict('api_key_limit_reached', `An organization can hold at most ${MAX_ACTIVE_KEYS_PER_ORGANIZATION} active keys`);
  }
  const { apiKey, secret } = issueApiKey(context.em, identity.userId, id, name);
  await context.em.flush();
  return { apiKey, key: secret };
}

/** Revokes every key acting as the user; the caller forgets the cached identities once committed. */
export async function revokeApiKeysOf(em: EntityManager, userId: string): Promise<number> {
  return em.nativeUpdate(ApiKey, { userId, revokedAt: null }, { revokedAt: new Date() });
}

/**
 * `organizationId` (the path's, in REST) when given must be the key's: a key is not found under another organization.
 * "default" names the caller's default organization, as in the REST path.
 */
export async function revokeApiKey(context: RequestContext, keyId: string, organizationId?: string | null) {
  const identity = requireUserSession(context);
  if (!isUuid(keyId)) throw notFound('API key');
  const apiKey = await context.em.findOne(ApiKey, keyId);
  if (!apiKey || !(await roleIn(context.em, identity.userId, apiKey.organizationId))) throw notFound('API key');
  const expected = organizationId === 'default' ? identity.organizationId : organizationId;
  if (expected !== undefined && expected !== null && expected !== apiKey.organizationId) throw notFound('API key');
  await requireManagedOrganization(context, identity.userId, apiKey.organizationId);
  if (!apiKey.revokedAt) {
    apiKey.revokedAt = new Date();
    await context.em.flush();
    await forgetApiKeyIdentities(context.em, apiKey.userId, context.services.log);
  }
  return apiKey;
}
