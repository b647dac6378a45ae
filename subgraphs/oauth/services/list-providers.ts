import { requireIdentity, type RequestContext } from '../../../shared/context.js';
import { OAuthConnection } from '../entities/connection.js';
import type { OAuthProviderView } from '../types/results.js';
import { providersVisibleTo } from './find-provider.js';
import { providerView } from './views.js';

/** Active global providers and those of the caller's organizations, each saying whether the caller is connected. */
export async function listProviders(context: RequestContext): Promise<OAuthProviderView[]> {
  const { userId } = requireIdentity(context);
  const providers = await providersVisibleTo(context);
  const connections = await context.em.find(OAuthConnection, { userId });
  const connected = new Set(connections.map((connection) => connection.providerId));
  return providers.map((provider) => providerView(context.services.config, provider, connected.has(provider.id)));
}
