import { requireIdentity, type RequestContext } from '../../../shared/context.js';
import { secretBoxOf } from '../../../shared/secret-box.js';
import { OAuthConnection } from '../entities/connection.js';
import { findOwnConnection, lockUserProvider } from './find-connection.js';
import { findProviderById } from './find-provider.js';
import { endpointsOf } from './provider-endpoints.js';
import { callProvider, clientBasicAuth } from './provider-http.js';

export interface ConnectionDeleted {
  connectionId: string;
  /** True when the provider confirmed the revocation (RFC 7009); false when it has no endpoint or could not be reached. */
  revokedAtProvider: boolean;
}

/** RFC 7009: the refresh token when there is one (revoking it ends the grant), else the access token. */
async function revokeAtProvider(context: RequestContext, connection: OAuthConnection): Promise<boolean> {
  const { services } = context;
  const provider = await findProviderById(context.em, connection.providerId);
  if (!provider) return false;
  try {
    const endpoints = await endpointsOf(services, provider);
    if (!endpoints.revokeUrl) return false;
    const box = secretBoxOf(services);
    const [token, hint] = connection.refreshTokenSealed
      ? [box.decrypt(connection.refreshTokenSealed), 'refresh_token']
      : [box.decrypt(connection.accessTokenSealed), 'access_token'];
    const answer = await callProvider(services, provider.slug, {
      url: endpoints.revokeUrl,
      form: { token, token_type_hint: hint },
      headers: { authorization: clientBasicAuth(provider.clientId, box.decrypt(provider.clientSecretSealed)) },
    });
    return answer.status === 200;
  } catch {
    services.log.warn({ provider: provider.slug, connectionId: connection.id }, 'oauth revocation failed; the connection is deleted all the same');
    return false;
  }
}

/**
 * Disconnects an account: its token is revoked at the provider when the provider has a revocation
 * endpoint, then the connection is deleted (the platform forgets the tokens even if the provider
 * could not be reached). Another of the user's connections to that provider becomes the default.
 */
export async function deleteConnection(context: RequestContext, connectionId: string): Promise<ConnectionDeleted> {
  const { userId } = requireIdentity(context);
  const connection = await findOwnConnection(context.em, userId, connectionId);
  const revokedAtProvider = await revokeAtProvider(context, connection);
  await context.em.transactional(async (em) => {
    await lockUserProvider(em, userId, connection.providerId);
    await em.nativeDelete(OAuthConnection, { id: connection.id, userId });
    const remaining = await em.findOne(OAuthConnection, { userId, providerId: connection.providerId }, { orderBy: { isDefault: 'desc', createdAt: 'desc' } });
    if (remaining && !remaining.isDefault) remaining.isDefault = true;
  });
  return { connectionId: connection.id, revokedAtProvider };
}
