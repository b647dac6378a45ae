import type { EntityManager } from '@mikro-orm/postgresql';
import type pg from 'pg';
import { AppError } from '../../../shared/errors.js';
import type { DatabaseLocation, PublishedQueryLimits, PublishedQueryResult } from '../../../shared/ports.js';
import { secretBoxOf } from '../../../shared/secret-box.js';
import type { PlatformServices } from '../../../shared/services.js';
import type { RoleLogin } from '../data-plane/data-plane.js';
import { generatePassword, physicalName } from '../data-plane/names.js';
import { dataPlaneOf } from '../data-plane/open-data-plane.js';
import { createReaderRole } from '../data-plane/published-reader.js';
import { runStatement } from '../data-plane/run-statement.js';
import { readOnlyRefusal } from '../data-plane/sql-errors.js';
import { DatabaseBranch } from '../entities/branch.js';
import { ManagedDatabase } from '../entities/database.js';
import { DatabaseProject } from '../entities/project.js';
import { isUuid } from '../../../shared/ids.js';
import { readyEndpointForSql } from './endpoints.js';
import { withProjectLock } from './project-lock.js';
import { withBranchSession, type BranchDatabase } from './sql-session.js';

const PUBLISHED_SCHEMA = 'public';
const MAX_QUERY_CHARACTERS = 100_000;

/** A comment or whitespace before the first word. */
const LEADING = /^(?:\s+|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)*/;
const LOCKING_CLAUSE = /\bfor\s+(?:no\s+key\s+)?(?:update|share|key\s+share)\b/i;

/**
 * A published query reads: it starts with SELECT, WITH, VALUES or TABLE and takes no row locks.
 * Anything else (SET ROLE, a DML statement, SELECT … FOR UPDATE) is refused before it runs; a
 * write hidden deeper (a CTE with INSERT, a function that writes) is refused by the READ ONLY
 * transaction and the role's missing privileges.
 */
export function checkedReadQuery(query: unknown): string {
  if (typeof query !== 'string' || query.trim() === '') throw new AppError(400, 'invalid_query', 'The body needs a "query": one SQL SELECT statement');
  if (query.length > MAX_QUERY_CHARACTERS || query.includes('\u0000')) throw new AppError(400, 'invalid_query', `A query is at most ${MAX_QUERY_CHARACTERS} characters, without NUL`);
  const first = /^\(*\s*([a-z]+)/i.exec(query.replace(LEADING, ''))?.[1]?.toLowerCase();
  if (!first || !['select', 'with', 'values', 'table'].includes(first) || LOCKING_CLAUSE.test(query)) throw readOnlyRefusal();
  return query;
}

async function locate(em: EntityManager, location: DatabaseLocation): Promise<BranchDatabase | null> {
  if (!isUuid(location.projectId) || !isUuid(location.branchId)) return null;
  const [project, branch] = await Promise.all([
    em.findOne(DatabaseProject, { id: location.projectId }),
    em.findOne(DatabaseBranch, { id: location.branchId, projectId: location.projectId }),
  ]);
  const database = branch ? await em.findOne(ManagedDatabase, { branchId: branch.id, name: location.databaseName }) : null;
  return project && branch && database ? { project, branch, database } : null;
}

export async function ownsDatabase(em: EntityManager, organizationId: string, location: DatabaseLocation): Promise<boolean> {
  const found = await locate(em, location);
  return found?.project.organizationId === organizationId;
}

/** The database's reader role, made (once, under the project's lock) when first needed. */
async function readerLogin(services: PlatformServices, em: EntityManager, target: BranchDatabase): Promise<RoleLogin> {
  const box = secretBoxOf(services);
  const { database, project } = target;
  if (database.readerRole && database.readerPasswordSealed) return { role: database.readerRole, password: box.decrypt(database.readerPasswordSealed) };
  // The grants are made in the database: it must accept connections.
  await readyEndpointForSql(services, em, project.id, target.branch.id);
  return withProjectLock(em, project.id, async (tx) => {
    const row = await tx.findOneOrFail(ManagedDatabase, { id: database.id }, { refresh: true });
    if (!row.readerRole || !row.readerPasswordSealed) {
      const reader = physicalName(services.config.databases.namePrefix, 'r');
      const password = generatePassword();
      await createReaderRole(await dataPlaneOf(services), { reader, password, database: row.physicalName, owner: project.roleName, schema: PUBLISHED_SCHEMA });
      row.readerRole = reader;
      row.readerPasswordSealed = box.encrypt(password);
      await tx.flush();
    }
    return { role: row.readerRole, password: box.decrypt(row.readerPasswordSealed!) };
  });
}

const unavailable = () => new AppError(503, 'publisher_database_unavailable', 'The publisher’s database is not available; nothing was charged');

/** Work in a READ ONLY transaction (no statement can turn it read-write) that is always rolled back. */
async function readOnly<T>(client: pg.PoolClient, statementTimeoutMs: number, work: () => Promise<T>): Promise<T> {
  await client.query(`BEGIN READ ONLY; SET LOCAL statement_timeout = ${Math.max(1, Math.floor(statementTimeoutMs))}; SELECT 1`);
  try {
    return await work();
  } finally {
    await client.query('ROLLBACK');
  }
}

async function withReader<T>(services: PlatformServices, em: EntityManager, location: DatabaseLocation, query: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const target = await locate(em, location);
  if (!target) throw unavailable();
  const login = await readerLogin(services, em, target);
  return withBranchSession(services, em, target, login, [query], work);
}

export function publishedQueryPorts(services: PlatformServices) {
  return {
    ownsDatabase,
    async runPublishedQuery(em: EntityManager, location: DatabaseLocation, query: string, limits: PublishedQueryLimits): Promise<PublishedQueryResult> {
      const checked = checkedReadQuery(query);
      const maxResultBytes = services.config.databases.maxResultBytes;
      return withReader(services, em, location, checked, (client) =>
        readOnly(client, limits.statementTimeoutMs, async () => {
          const result = await runStatement(client, checked, { maxRows: limits.maxRows, maxResultBytes });
          return { rows: result.rows, fields: result.fields, rowCount: result.rows.length, truncated: result.truncated, durationMs: result.durationMs };
        }),
      );
    },
    async estimatePublishedQuery(em: EntityManager, location: DatabaseLocation, query: string): Promise<number> {
      const checked = checkedReadQuery(query);
      return withReader(services, em, location, checked, (client) =>
        readOnly(client, services.config.databases.statementTimeoutMs, async () => {
          const { rows } = await client.query({ text: `EXPLAIN (FORMAT JSON) ${checked}`, queryMode: 'extended' } as pg.QueryConfig);
          const plan = rows[0]?.['QUERY PLAN']?.[0]?.Plan as { 'Plan Rows'?: number } | undefined;
          return Math.max(0, Math.ceil(plan?.['Plan Rows'] ?? 0));
        }),
      );
    },
  };
}
