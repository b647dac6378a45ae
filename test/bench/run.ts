import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../shared/config.js';
import { createLogger } from '../../shared/logger.js';
import { findFreePort } from '../../shared/db/embedded-postgres.js';
import { openServices } from '../../shared/platform-services.js';
import { subgraphModules } from '../../gateway/subgraphs.js';
import { Api } from '../support/http.js';
import { startPlatformChild } from './child-process.js';
import { createBenchDatabase } from './database.js';
import { measure, type Measurement, type MeasureOptions } from './measure.js';
import { cpuSecondsOf } from './process-cpu.js';
import { scenarios } from './scenarios/index.js';
import { benchScripts } from './scripts.js';
import type { BenchRow } from './scenario.js';

function describe(m: Measurement): string {
  const cpu = m.platformCpuUsPerRequest === undefined ? '' : `  platform CPU ${m.platformCpuUsPerRequest} µs/req`;
  return `${m.requestsPerSecond} req/s  p50 ${m.p50Ms} ms  mean ${m.meanMs} ms  p99 ${m.p99Ms} ms${cpu}  (${m.requests} requests, ${m.non2xx} non-2xx, ${m.errors} errors)`;
}

/**
 * Throughput on 2 shared cores swings with whatever else runs; the platform's own CPU time per
 * request is the steadier figure for comparing two versions of the code.
 */
function measuringPlatformCpu(pid: number) {
  return async (options: MeasureOptions): Promise<Measurement> => {
    const before = cpuSecondsOf(pid);
    const measured = await measure(options);
    const after = cpuSecondsOf(pid);
    if (before === null || after === null || measured.requests === 0) return measured;
    return { ...measured, platformCpuUsPerRequest: Math.round(((after - before) * 1e6) / measured.requests) };
  };
}

/**
 * `npm run bench [scenario…]`: the platform runs as `npm start` would, in its own process, on a
 * fresh database (a new database on DATABASE_URL's server, else an embedded PostgreSQL); the load
 * comes from this process, and scenarios set up their data through the API or the services.
 */
async function main() {
  const only = process.argv.slice(2);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'acp-bench-'));
  const database = await createBenchDatabase();
  const env = {
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    DATA_DIR: dataDir,
    DATABASE_URL: database.url,
    SEED_CATALOGUE: 'false',
    // The load comes from one address: the catalogue's per-address budget would measure itself.
    CATALOGUE_READS_PER_MINUTE: '1000000',
    // The paid-proxy scenario's upstream runs on this machine.
    PROXY_ALLOW_PRIVATE_UPSTREAMS: 'true',
    // Scenarios read the platform's own timers (where a paid call's time goes).
    METRICS_TOKEN: randomBytes(24).toString('hex'),
  };
  const platform = await startPlatformChild(benchScripts.platform, await findFreePort(), env);
  const config = loadConfig({ ...process.env, ...env, PORT: '0' });
  const opened = await openServices(config, createLogger(config.logLevel), subgraphModules);
  const rows: BenchRow[] = [];
  try {
    for (const scenario of scenarios) {
      if (only.length > 0 && !only.includes(scenario.name)) continue;
      console.error(`running ${scenario.name} …`);
      const api = new Api(platform.url);
      const scrapeMetrics = async () => String((await api.get('/metrics', { token: env.METRICS_TOKEN })).body);
      const context = { url: platform.url, api, services: opened.services, measure: measuringPlatformCpu(platform.pid), scrapeMetrics };
      rows.push(...(await scenario.run(context)));
    }
  } finally {
    await opened.close();
    await platform.close();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  for (const row of rows) {
    const http = row.measurement ? describe(row.measurement) : '';
    const figures = row.figures ? Object.entries(row.figures).map(([k, v]) => `${k} ${v}`).join('  ') : '';
    console.log(`${row.scenario.padEnd(14)} ${row.case.padEnd(46)} ${http}${figures}`);
  }
  process.exit(0);
}

await main();
