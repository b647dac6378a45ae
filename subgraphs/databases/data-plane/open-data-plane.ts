import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../../shared/db/embedded-postgres.js';
import type { PlatformServices } from '../../../shared/services.js';
import { DataPlane } from './data-plane.js';
import { generatePassword, quoteIdentifier, quoteLiteral } from './names.js';

const opened = new WeakMap<PlatformServices, Promise<DataPlane>>();

/**
 * The data plane of this process, opened on first use (a platform that never manages a database
 * never starts a second cluster): DATA_PLANE_DATABASE_URL, or an embedded PostgreSQL 18 cluster of
 * its own under DATA_DIR/data-plane, so users' SQL never shares a server with the ledger.
 */
export function dataPlaneOf(services: PlatformServices): Promise<DataPlane> {
  let plane = opened.get(services);
  if (!plane) {
    plane = openDataPlane(services);
    opened.set(services, plane);
    plane.catch(() => opened.delete(services));
  }
  return plane;
}

async function openDataPlane(services: PlatformServices): Promise<DataPlane> {
  const { config, log } = services;
  let url = config.databases.dataPlaneUrl;
  if (!url) {
    const dataDir = path.join(config.dataDir, 'data-plane');
    // As root, PostgreSQL runs as the OS user postgres, which must be able to traverse DATA_DIR too.
    mkdirSync(config.dataDir, { recursive: true });
    if (process.getuid?.() === 0) chmodSync(config.dataDir, 0o755);
    // clone: a branch's copy is copy_file_range, copy-on-write where the filesystem can.
    const embedded = await startEmbeddedPostgres(dataDir, log, 'postgres', { postgresFlags: ['-c', 'file_copy_method=clone'] });
    services.onShutdown(() => embedded.stop());
    url = await embeddedAdminUrl(embedded.url, dataDir, config.databases.namePrefix);
  }
  const plane = new DataPlane(url, log, {
    statementTimeoutMs: config.databases.statementTimeoutMs,
    poolMax: config.databases.maxConcurrentPerProject,
  });
  services.onShutdown(() => plane.close());
  return plane;
}

/**
 * On the embedded cluster the platform is its superuser, but works as a role with CREATEDB and
 * CREATEROLE only, in a database of its own; nothing of the cluster's own databases is open to
 * the public (user roles can connect to their own databases only).
 */
async function embeddedAdminUrl(superuserUrl: string, dataDir: string, prefix: string): Promise<string> {
  const passwordFile = path.join(dataDir, 'admin.password');
  mkdirSync(dataDir, { recursive: true });
  if (!existsSync(passwordFile)) writeFileSync(passwordFile, generatePassword(), { mode: 0o600 });
  const password = readFileSync(passwordFile, 'utf8').trim();
  const role = `${prefix}admin`;
  const client = new pg.Client({ connectionString: superuserUrl });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]);
    const verb = exists.rowCount === 0 ? 'CREATE' : 'ALTER';
    await client.query(`${verb} ROLE ${quoteIdentifier(role)} LOGIN CREATEDB CREATEROLE NOSUPERUSER PASSWORD ${quoteLiteral(password)}`);
    const database = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [role]);
    if (database.rowCount === 0) await client.query(`CREATE DATABASE ${quoteIdentifier(role)} OWNER ${quoteIdentifier(role)}`);
    for (const name of ['postgres', 'template1', role]) await client.query(`REVOKE CONNECT ON DATABASE ${quoteIdentifier(name)} FROM PUBLIC`);
    // A checkpoint before a branch's window keeps the parent's pause short (create-branch.ts).
    await client.query(`GRANT pg_checkpoint TO ${quoteIdentifier(role)}`);
  } finally {
    await client.end();
  }
  const url = new URL(superuserUrl);
  url.username = role;
  url.password = password;
  url.pathname = `/${role}`;
  return url.toString();
}
