import type { EntityManager } from '@mikro-orm/postgresql';
import { secretBoxOf } from '../../../shared/secret-box.js';
import type { PlatformServices } from '../../../shared/services.js';
import { OAuthConnection } from '../entities/connection.js';
import { lockUserProvider } from './find-connection.js';
import type { TokenSet } from './token-requests.js';

/**
 * Stores a connected account, its tokens sealed: the same account linked again gets the new
 * tokens (and is active again); the first connection of a user to a provider is its default.
 * The user and provider are serialised by an advisory lock, so two callbacks at once cannot both
 * decide to be the first.
 */
export async function saveConnection(
  services: PlatformServices,
  em: EntityManager,
  owner: { userId: string; providerId: string; accountId: string; requestedScopes: string[] },
  tokens: TokenSet,
): Promise<OAuthConnection> {
  const box = secretBoxOf(services);
  return em.transactional(async (tx) => {
    await lockUserProvider(tx, owner.userId, owner.providerId);
    const { userId, providerId, accountId } = owner;
    let connection = await tx.findOne(OAuthConnection, { userId, providerId, accountId });
    if (!connection) {
      const hasDefault = (await tx.count(OAuthConnection, { userId, providerId, isDefault: true })) > 0;
      connection = tx.create(OAuthConnection, { userId, providerId, accountId, isDefault: !hasDefault } as OAuthConnection);
    }
    connection.accessTokenSealed = box.encrypt(tokens.accessToken);
    connection.refreshTokenSealed = tokens.refreshToken ? box.encrypt(tokens.refreshToken) : connection.refreshTokenSealed;
    connection.expiresAt = tokens.expiresAt;
    connection.scopes = tokens.scopes ?? owner.requestedScopes;
    connection.status = 'active';
    return connection;
  });
}
