import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createLogger } from '../../shared/logger.js';
import { startEmbeddedPostgres } from '../../shared/db/embedded-postgres.js';
import { databaseUrlFor } from '../support/database-url.js';

export interface BenchDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A new database for one bench run: on DATABASE_URL's server, else on an embedded PostgreSQL removed afterwards. */
export async function createBenchDatabase(): Promise<BenchDatabase> {
  const embeddedDir = process.env.DATABASE_URL ? undefined : mkdtempSync(path.join(tmpdir(), 'acp-bench-pg-'));
  const embedded = embeddedDir ? await startEmbeddedPostgres(embeddedDir, createLogger('warn'), 'postgres') : undefined;
  const adminUrl = process.env.DATABASE_URL ?? embedded!.url;
  const name = `acp_bench_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  return {
    url: databaseUrlFor(adminUrl, name),
    async drop() {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
      await embedded?.stop();
      if (embeddedDir) rmSync(embeddedDir, { recursive: true, force: true });
    },
  };
}
