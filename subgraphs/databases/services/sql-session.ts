import type { EntityManager } from '@mikro-orm/postgresql';
import type pg from 'pg';
import type { RequestContext } from '../../../shared/context.js';
import { notFound } from '../../../shared/errors.js';
import { secretBoxOf } from '../../../shared/secret-box.js';
import type { PlatformServices } from '../../../shared/services.js';
import type { DataPlane, RoleLogin } from '../data-plane/data-plane.js';
import { dataPlaneOf } from '../data-plane/open-data-plane.js';
import { isConnectionsRefused, sqlErrorOf } from '../data-plane/sql-errors.js';
import type { DatabaseBranch } from '../entities/branch.js';
import { ManagedDatabase } from '../entities/database.js';
import { ComputeEndpoint } from '../entities/endpoint.js';
import type { DatabaseProject } from '../entities/project.js';
import { findOwnedBranch } from './access.js';
import { withProjectSlot } from './concurrency.js';
import { markEndpointActive, readyEndpointForSql } from './endpoints.js';

export interface SqlTarget {
  projectId: string;
  branchId: string;
  database: string;
}

export interface BranchDatabase {
  project: DatabaseProject;
  branch: DatabaseBranch;
  database: ManagedDatabase;
}

/** Statements that can change a session's state for whoever uses the pooled session next: it is closed after them. */
const CHANGES_SESSION = /\b(set|reset|discard|set_config|load|listen|prepare|advisory)\w*\b/i;

/** The project's own role, its password unsealed. */
export const projectLogin = (services: PlatformServices, project: DatabaseProject): RoleLogin => ({
  role: project.roleName,
  password: secretBoxOf(services).decrypt(project.passwordSealed),
});

/** A session as the project's role on one database of the caller's branch (404 for anything not theirs). */
export async function withSqlSession<T>(context: RequestContext, target: SqlTarget, statements: string[], work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const { project, branch } = await findOwnedBranch(context, target.projectId, target.branchId);
  const database = await context.em.findOne(ManagedDatabase, { branchId: branch.id, name: target.database });
  if (!database) throw notFound('Database');
  return withBranchSession(context.services, context.em, { project, branch, database }, projectLogin(context.services, project), statements, work);
}

/**
 * A session as `login` on a branch's database: the endpoint started first when suspended (or 409
 * when it must not start itself), the project's concurrency cap held, the endpoint marked active.
 * SQL errors come back as 400 `sql_error`; a session whose state the statements may have changed
 * is closed rather than pooled.
 */
export async function withBranchSession<T>(
  services: PlatformServices,
  em: EntityManager,
  target: BranchDatabase,
  login: RoleLogin,
  statements: string[],
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const { project, branch, database } = target;
  const endpoint = await em.findOne(ComputeEndpoint, { branchId: branch.id });
  return withProjectSlot(project.id, services.config.databases.maxConcurrentPerProject, async () => {
    const ready = () => readyEndpointForSql(services, em, project.id, branch.id);
    if (!endpoint || endpoint.suspendedAt) await ready();
    const client = await connect(await dataPlaneOf(services), database.physicalName, login, ready);
    let broken = statements.some((statement) => CHANGES_SESSION.test(statement));
    try {
      return await work(client);
    } catch (error) {
      broken = true;
      throw sqlErrorOf(error);
    } finally {
      client.release(broken);
      await markEndpointActive(em, endpoint);
    }
  });
}

/** A refused connection (the endpoint suspended meanwhile, or a branch's window) waits for the project's lock, readies the endpoint, and tries once more. */
async function connect(plane: DataPlane, database: string, login: RoleLogin, ready: () => Promise<void>): Promise<pg.PoolClient> {
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
