import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../shared/config.js';
import { startPlatform, type Platform } from '../../gateway/platform.js';
import { createTestDatabase, type TestDatabase } from './database.js';
import { createTestDataPlane } from './data-plane.js';
import { Api } from './http.js';
import { Mailbox } from './mailbox.js';
import type { Logger } from '../../shared/logger.js';

export interface TestPlatform {
  api: Api;
  mailbox: Mailbox;
  platform: Platform;
  database: TestDatabase;
  dataDir: string;
  close(): Promise<void>;
}

/** The whole platform in-process on a random port, on its own fresh database (unless given one) and data folder. */
export async function startTestPlatform(
  env: Record<string, string> = {},
  options: { database?: TestDatabase; log?: Logger } = {},
): Promise<TestPlatform> {
  const database = options.database ?? (await createTestDatabase());
  // Managed databases live on the test server too (never a second cluster per test), dropped at close.
  const dataPlane = env.DATA_PLANE_DATABASE_URL ? null : await createTestDataPlane();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'acp-test-data-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATA_DIR: dataDir,
    PUBLIC_URL: 'http://app.test',
    DB_POOL_MAX: '10',
    SEED_CATALOGUE: 'false',
    // A test that ends with a stream still open should not wait long for it at close.
    SHUTDOWN_GRACE_MS: '1000',
    ...dataPlane?.env,
    ...env,
    DATABASE_URL: database.url,
  });
  const platform = await startPlatform(config, options.log);
  return {
    api: new Api(platform.url),
    mailbox: new Mailbox(dataDir),
    platform,
    database,
    dataDir,
    async close() {
      await platform.close();
      await dataPlane?.drop();
      if (!options.database) await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
