// Plain ESM: jest loads global setup outside its ESM/TypeScript pipeline, so it uses the compiled
// kernel in dist/ (`npm test` runs tsc first).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createLogger } from '../../dist/shared/logger.js';
import { startEmbeddedPostgres } from '../../dist/shared/db/embedded-postgres.js';
import { createOrm, migrate } from '../../dist/shared/db/orm.js';
import { subgraphModules } from '../../dist/gateway/subgraphs.js';
import { databaseUrlFor } from '../../dist/test/support/database-url.js';

/**
 * One migrated template database per test run; every test file clones it (CREATE DATABASE …
 * TEMPLATE), so files run in parallel on fresh data. DATABASE_URL selects a real server (CI: the
 * machine's PostgreSQL); without it an embedded PostgreSQL is started for the run.
 */
export default async function globalSetup() {
  await import('reflect-metadata');
  let adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'acp-test-pg-'));
    const embedded = await startEmbeddedPostgres(dataDir, createLogger('warn'), 'postgres');
    globalThis.__embeddedPostgres = embedded;
    globalThis.__embeddedPostgresDir = dataDir;
    adminUrl = embedded.url;
  }
  const template = `acp_template_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${template}`);
  await admin.end();
  const orm = await createOrm(subgraphModules, { url: databaseUrlFor(adminUrl, template) });
  await migrate(orm);
  await orm.close(true);
  process.env.TEST_ADMIN_DATABASE_URL = adminUrl;
  process.env.TEST_TEMPLATE_DATABASE = template;
}
