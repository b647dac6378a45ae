import { requireIdentity, type RequestContext } from '../../../shared/context.js';
import { OAuthConnection } from '../entities/connection.js';
import { findOwnConnection, lockUserProvider } from './find-connection.js';

/** Makes the connection its provider's default for the user, and the only one. 404 when not the caller's. */
export async function setDefaultConnection(context: RequestContext, connectionId: string): Promise<OAuthConnection> {
  const { userId } = requireIdentity(context);
  return context.em.transactional(async (em) => {
    const { providerId } = await findOwnConnection(em, userId, connectionId);
    await lockUserProvider(em, userId, providerId);
    await em.nativeUpdate(OAuthConnection, { userId, providerId, isDefault: true, id: { $ne: connectionId } }, { isDefault: false });
    const connection = await findOwnConnection(em, userId, connectionId);
    connection.isDefault = true;
    return connection;
  });
}
