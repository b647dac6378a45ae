import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode } from '@mikro-orm/core';
import { notFound } from '../../../shared/errors.js';
import { isUuid } from '../../../shared/ids.js';
import { OAuthConnection } from '../entities/connection.js';

export const connectionNotFound = () => notFound('OAuth connection', 'oauth_connection_not_found');

/** The user's own connection (locked when `forUpdate`); unknown or another user's: 404. */
export async function findOwnConnection(em: EntityManager, userId: string, connectionId: string, forUpdate = false): Promise<OAuthConnection> {
  const lock = forUpdate ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {};
  const connection = isUuid(connectionId) ? await em.findOne(OAuthConnection, { id: connectionId, userId }, lock) : null;
  if (!connection) throw connectionNotFound();
  return connection;
}

/** Serialises changes to one user's connections to one provider (which is default), until the transaction ends. */
export async function lockUserProvider(em: EntityManager, userId: string, providerId: string): Promise<void> {
  await em.execute('select pg_advisory_xact_lock(hashtext(?))', [`oauth_connection:${userId}:${providerId}`]);
}
