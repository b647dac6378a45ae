import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { findPlain } from '../../../shared/db/plain-rows.js';
import { isUuid } from '../../../shared/ids.js';
import type { UserOAuthToken } from '../../../shared/ports.js';
import { secretBoxOf } from '../../../shared/secret-box.js';
import type { PlatformServices } from '../../../shared/services.js';
import { OAuthConnection } from '../entities/connection.js';
import { OAuthProvider } from '../entities/provider.js';
import { endpointsOf } from './provider-endpoints.js';
import { TokenRequestRefused, requestTokens } from './token-requests.js';

/** A token expiring sooner than this is refreshed before it is used. */
const REFRESH_MARGIN_MS = 60_000;
const expiresSoon = (connection: OAuthConnection) => connection.expiresAt !== null && connection.expiresAt.getTime() - Date.now() < REFRESH_MARGIN_MS;
const expired = (connection: OAuthConnection) => connection.expiresAt !== null && connection.expiresAt.getTime() <= Date.now();

/**
 * Refreshes the connection's token under its row lock (SELECT … FOR UPDATE), so processes racing
 * to refresh it take turns: the later ones find it fresh and use the new token. Two refreshes with
 * one rotating refresh token would look like theft to a provider that detects reuse, and it would
 * revoke the whole grant. A refusal marks the connection `needs_reauthorization`. The lock is held
 * across the token request (at most PROXY_TIMEOUT_MS per hop).
 */
async function refreshUnderLock(services: PlatformServices, em: EntityManager, provider: OAuthProvider, connectionId: string): Promise<UserOAuthToken> {
  const box = secretBoxOf(services);
  const needsReauthorization: UserOAuthToken = { status: 'needs_reauthorization', providerSlug: provider.slug };
  return em.fork().transactional(async (tx) => {
    const connection = await tx.findOne(OAuthConnection, { id: connectionId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!connection) return { status: 'missing', providerSlug: provider.slug };
    if (connection.status !== 'active') return needsReauthorization;
    if (!expiresSoon(connection)) return { status: 'ok', accessToken: box.decrypt(connection.accessTokenSealed) };
    if (!connection.refreshTokenSealed) {
      if (!expired(connection)) return { status: 'ok', accessToken: box.decrypt(connection.accessTokenSealed) };
      connection.status = 'needs_reauthorization';
      return needsReauthorization;
    }
    try {
      const endpoints = await endpointsOf(services, provider);
      const tokens = await requestTokens(services, provider, endpoints, {
        grant_type: 'refresh_token',
        refresh_token: box.decrypt(connection.refreshTokenSealed),
      });
      connection.accessTokenSealed = box.encrypt(tokens.accessToken);
      if (tokens.refreshToken) connection.refreshTokenSealed = box.encrypt(tokens.refreshToken);
      connection.expiresAt = tokens.expiresAt;
      if (tokens.scopes) connection.scopes = tokens.scopes;
      return { status: 'ok', accessToken: tokens.accessToken };
    } catch (error) {
      if (!(error instanceof TokenRequestRefused)) throw error;
      services.log.info({ provider: provider.slug, connectionId, reason: error.reason }, 'oauth refresh refused; the connection needs reauthorization');
      connection.status = 'needs_reauthorization';
      return needsReauthorization;
    }
  });
}

/**
 * The `userOAuthToken` port: the access token of the user's default connection to the provider,
 * refreshed first when it expires within a minute. 503 oauth_provider_unavailable when a refresh
 * was needed and the provider could not be reached.
 */
export async function userAccessToken(services: PlatformServices, em: EntityManager, userId: string, providerId: string): Promise<UserOAuthToken> {
  if (!isUuid(providerId)) return { status: 'missing', providerSlug: null };
  // On every paid call of such a publisher: both rows at once, read outside the unit of work.
  const [[provider], [connection]] = await Promise.all([
    findPlain(em, OAuthProvider, { id: providerId }),
    findPlain(em, OAuthConnection, { userId, providerId, isDefault: true }),
  ]);
  if (!provider || !provider.isActive) return { status: 'missing', providerSlug: provider?.slug ?? null };
  if (!connection) return { status: 'missing', providerSlug: provider.slug };
  if (connection.status !== 'active') return { status: 'needs_reauthorization', providerSlug: provider.slug };
  if (!expiresSoon(connection)) return { status: 'ok', accessToken: secretBoxOf(services).decrypt(connection.accessTokenSealed) };
  return refreshUnderLock(services, em, provider, connection.id);
}
