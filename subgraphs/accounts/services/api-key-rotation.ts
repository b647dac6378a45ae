import type { EntityManager } from '@mikro-orm/postgresql';
import { UserAccount } from '../entities/user.js';
import { issueApiKey, revokeApiKeysOf } from './api-keys.js';
import { forgetApiKeyIdentities } from './api-key-identities.js';

/** Wallet recovery: every active key of the user stops working and one new `agent` key is issued. */
export async function rotateApiKey(em: EntityManager, userId: string): Promise<{ apiKey: string } | null> {
  const user = await em.findOne(UserAccount, userId);
  if (!user) return null;
  await revokeApiKeysOf(em, userId);
  const { secret } = issueApiKey(em, userId, user.defaultOrganizationId, 'agent');
  await em.flush();
  await forgetApiKeyIdentities(em, userId);
  return { apiKey: secret };
}
