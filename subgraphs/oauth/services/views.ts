import type { Config } from '../../../shared/config.js';
import type { OAuthConnection } from '../entities/connection.js';
import type { OAuthProvider } from '../entities/provider.js';
import type { OAuthConnectionView, OAuthProviderView } from '../types/results.js';
import { callbackUriOf } from './start-authorization.js';

/** What anyone who may use the provider sees: never its client secret. */
export function providerView(config: Config, provider: OAuthProvider, connected: boolean): OAuthProviderView {
  return {
    id: provider.id,
    slug: provider.slug,
    name: provider.name,
    scopes: provider.scopes,
    organizationId: provider.organizationId,
    isActive: provider.isActive,
    connected,
    callbackUrl: callbackUriOf(config, provider),
    issuer: provider.issuer,
    authorizeUrl: provider.authorizeUrl,
    tokenUrl: provider.tokenUrl,
    userinfoUrl: provider.userinfoUrl,
    revokeUrl: provider.revokeUrl,
    clientId: provider.clientId,
  };
}

/** A connection without its tokens. */
export function connectionView(connection: OAuthConnection, provider: Pick<OAuthProvider, 'slug' | 'name'>): OAuthConnectionView {
  return {
    id: connection.id,
    providerId: connection.providerId,
    providerSlug: provider.slug,
    providerName: provider.name,
    accountId: connection.accountId,
    scopes: connection.scopes,
    isDefault: connection.isDefault,
    status: connection.status,
    createdAt: connection.createdAt,
    expiresAt: connection.expiresAt,
  };
}
