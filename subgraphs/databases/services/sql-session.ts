import type pg from 'pg';
import type { RequestContext } from '../../../shared/context.js';
import { notFound } from '../../../shared/errors.js';
import { secretBoxOf } from '../../../shared/secret-box.js';
import type { DataPlane } from '../data-plane/data-plane.js';
import { dataPlaneOf } from '../data-plane/open-data-plane.js';
import { isConnectionsRefused, sqlErrorOf } from '../data-plane/sql-errors.js';
import { ManagedDatabase } from '../entities/database.js';
import { ComputeEndpoint } from '../entities/endpoint.js';
import { findOwnedBranch } from './access.js';
import { withProjectSlot } from './concurrency.js';
import { markEndpointActive, readyEndpointForSql } from './endpoints.js';

export interface SqlTarget {
  projectId: string;
  branchId: string;
  database: string;
}

/** Statements that can change a session's settings for whoever uses the pooled session next: it is closed after them. */
const CHANGES_SESSION = /\b(set|reset|discard|set_config|load)\b/i;

/**
 * A session as the project's role on one database of the branch, for the caller's work: the
 * endpoint started first when suspended (or 409 when it must not start itself), the project's
 * concurrency cap held, the endpoint marked active. SQL errors come back as 400 `sql_error`.
 */
export async function withSqlSession<T>(
  context: RequestContext,
  target: SqlTarget,
  statements: string[],
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const { project, branch } = await findOwnedBranch(context, target.projectId, target.branchId);
  const [database, endpoint] = await Promise.all([
    context.em.findOne(ManagedDatabase, { branchId: branch.id, name: target.database }),
    context.em.findOne(ComputeEndpoint, { branchId: branch.id }),
  ]);
  if (!database) throw notFound('Database');
  const { services } = context;
  return withProjectSlot(project.id, services.config.databases.maxConcurrentPerProject, async () => {
    if (!endpoint || endpoint.suspendedAt) await readyEndpointForSql(services, context.em, project.id, branch.id);
    const plane = await dataPlaneOf(services);
    const login = { role: project.roleName, password: secretBoxOf(services).decrypt(project.passwordSealed) };
    const client = await connect(plane, database.physicalName, login, () => readyEndpointForSql(services, context.em, project.id, branch.id));
    let broken = statements.some((statement) => CHANGES_SESSION.test(statement));
    try {
      return await work(client);
    } catch (error) {
      broken = true;
      throw sqlErrorOf(error);
    } finally {
      client.release(broken);
      await markEndpointActive(context.em, endpoint);
    }
  });
}

/** A refused connection (the endpoint suspended meanwhile, or a branch's window) waits for the project's lock, readies the endpoint, and tries once more. */
async function connect(plane: DataPlane, database: string, login: { role: string; password: string }, ready: () => Promise<void>): Promise<pg.PoolClient> {
  try {
    return await plane.poolFor(database, login).connect();
  } catch (error) {
    if (!isConnectionsRefused(error)) throw sqlErrorOf(error);
    await ready();
    return plane.poolFor(database, login).connect().catch((again) => {
      throw sqlErrorOf(again);
    });
  }
}
