import { requireIdentity, type RequestContext } from '../../../shared/context.js';
import { OAuthConnection } from '../entities/connection.js';
import { OAuthProvider } from '../entities/provider.js';
import type { OAuthConnectionView } from '../types/results.js';
import { findOwnConnection } from './find-connection.js';
import { connectionView } from './views.js';

/** The caller's connections, newest first, with their providers' names (two queries, whatever the count). */
export async function listConnections(context: RequestContext): Promise<OAuthConnectionView[]> {
  const { userId } = requireIdentity(context);
  const connections = await context.em.find(OAuthConnection, { userId }, { orderBy: { createdAt: 'desc', id: 'asc' } });
  const providers = await context.em.find(OAuthProvider, { id: { $in: [...new Set(connections.map((c) => c.providerId))] } });
  const byId = new Map(providers.map((provider) => [provider.id, provider]));
  return connections.map((connection) => connectionView(connection, byId.get(connection.providerId) ?? { slug: '', name: '' }));
}

/** One of the caller's connections as shown (404 when not theirs). */
export async function connectionShown(context: RequestContext, connectionId: string): Promise<OAuthConnectionView> {
  const { userId } = requireIdentity(context);
  const connection = await findOwnConnection(context.em, userId, connectionId);
  const provider = await context.em.findOneOrFail(OAuthProvider, { id: connection.providerId });
  return connectionView(connection, provider);
}
