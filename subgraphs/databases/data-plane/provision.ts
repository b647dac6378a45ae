import type { DataPlane } from './data-plane.js';
import { quoteIdentifier as q, quoteLiteral } from './names.js';

/**
 * A project's login role: no rights beyond owning its databases (no CREATEDB, CREATEROLE,
 * superuser, nor any predefined role such as pg_read_server_files). The admin is made a member so
 * it can create databases owned by it, end its sessions and drop it.
 */
export async function createProjectRole(plane: DataPlane, role: string, password: string): Promise<void> {
  await plane.admin.query(`CREATE ROLE ${q(role)} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS PASSWORD ${quoteLiteral(password)}`);
  await plane.admin.query(`GRANT ${q(role)} TO ${q(plane.adminRole)}`);
}

/** Ends the role's sessions on every database, then drops it (its databases are dropped first). */
export async function dropRole(plane: DataPlane, role: string): Promise<void> {
  await plane.admin.query('SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity WHERE usename = $1', [role]);
  await plane.admin.query(`DROP ROLE IF EXISTS ${q(role)}`);
}

/**
 * A database owned by `owner`, empty or a copy of `template` (file by file: a real copy of its data
 * at this moment; the template must have no session). Only its owner may connect.
 */
export async function createPhysicalDatabase(plane: DataPlane, name: string, owner: string, template?: string): Promise<void> {
  const copy = template ? ` TEMPLATE ${q(template)} STRATEGY FILE_COPY` : '';
  await plane.admin.query(`CREATE DATABASE ${q(name)} OWNER ${q(owner)}${copy}`);
  await plane.admin.query(`REVOKE CONNECT, TEMPORARY ON DATABASE ${q(name)} FROM PUBLIC`);
}

export async function dropPhysicalDatabase(plane: DataPlane, name: string): Promise<void> {
  plane.dropPools([name]);
  await plane.admin.query(`DROP DATABASE IF EXISTS ${q(name)} WITH (FORCE)`);
}

/** Sizes in bytes of the named databases (those that exist). */
export async function databaseSizes(plane: DataPlane, names: string[]): Promise<Map<string, bigint>> {
  if (names.length === 0) return new Map();
  const result = await plane.admin.query<{ datname: string; size: string }>(
    'SELECT datname, pg_database_size(oid)::text AS size FROM pg_database WHERE datname = ANY($1::text[])',
    [names],
  );
  return new Map(result.rows.map((row) => [row.datname, BigInt(row.size)]));
}

/** A managed database and the reader role made to publish it (its grants go with the database). */
export async function dropManagedDatabase(plane: DataPlane, database: { physicalName: string; readerRole: string | null }): Promise<void> {
  await dropPhysicalDatabase(plane, database.physicalName);
  if (database.readerRole) await dropRole(plane, database.readerRole);
}
