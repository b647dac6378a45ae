import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../../shared/config.js';
import { startPlatform } from '../../gateway/platform.js';
import { Api } from '../support/http.js';
import { databaseUrlFor } from '../support/database-url.js';
import { measure } from './measure.js';
import { scenarios } from './scenarios/index.js';
import type { BenchRow } from './scenario.js';

/**
 * `npm run bench [scenario…]`: starts the platform on a fresh database (a new database on
 * DATABASE_URL's server, else an embedded PostgreSQL) and prints each scenario's figures.
 */
async function main() {
  const only = process.argv.slice(2);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'acp-bench-'));
  let databaseUrl: string | undefined;
  let dropDatabase = async () => {};
  if (process.env.DATABASE_URL) {
    const name = `acp_bench_${process.pid}`;
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    databaseUrl = databaseUrlFor(process.env.DATABASE_URL, name);
    dropDatabase = async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    };
  }
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'test',
    PORT: '0',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl ?? '',
    SEED_CATALOGUE: 'false',
    // The paid-proxy scenario's upstream runs on this machine.
    PROXY_ALLOW_PRIVATE_UPSTREAMS: 'true',
  });
  const platform = await startPlatform(config);
  const rows: BenchRow[] = [];
  try {
    for (const scenario of scenarios) {
      if (only.length > 0 && !only.includes(scenario.name)) continue;
      console.error(`running ${scenario.name} …`);
      rows.push(...(await scenario.run({ url: platform.url, api: new Api(platform.url), services: platform.services, measure })));
    }
  } finally {
    await platform.close();
    await dropDatabase();
    rmSync(dataDir, { recursive: true, force: true });
  }
  for (const row of rows) {
    const m = row.measurement;
    const http = m ? `${m.requestsPerSecond} req/s  p50 ${m.p50Ms} ms  p99 ${m.p99Ms} ms  (${m.requests} requests, ${m.non2xx} non-2xx, ${m.errors} errors)` : '';
    const figures = row.figures ? Object.entries(row.figures).map(([k, v]) => `${k} ${v}`).join('  ') : '';
    console.log(`${row.scenario.padEnd(14)} ${row.case.padEnd(44)} ${http}${figures}`);
  }
  process.exit(0);
}

await main();
