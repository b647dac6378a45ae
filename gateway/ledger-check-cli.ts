import 'reflect-metadata';
import type { EntityManager } from '@mikro-orm/postgresql';
import { loadConfig } from '../shared/config.js';
import { checkLedger } from '../shared/ledger/index.js';
import { createLogger } from '../shared/logger.js';
import { openServices } from '../shared/platform-services.js';
import { subgraphModules } from './subgraphs.js';

/** `npm run ledger:check`: the ledger's invariants on DATABASE_URL (or the embedded database); exit 1 when broken. */
const config = loadConfig();
const opened = await openServices(config, createLogger('warn'), subgraphModules);
try {
  const check = await checkLedger(opened.services.orm.em.fork() as EntityManager);
  console.log(JSON.stringify(check, (_key, value) => (typeof value === 'bigint' ? value.toString() : value), 2));
  process.exitCode = check.ok ? 0 : 1;
} finally {
  await opened.close();
}
