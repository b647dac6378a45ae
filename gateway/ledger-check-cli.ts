import type { EntityManager } from '@mikro-orm/postgresql';
import { checkLedger } from '../shared/ledger/index.js';
import { runCli } from './cli.js';

/** `npm run ledger:check`: the ledger's invariants on DATABASE_URL (or the embedded database); exit 1 when broken. */
await runCli(
  async (services) => {
    const check = await checkLedger(services.orm.em.fork() as EntityManager);
    console.log(JSON.stringify(check, (_key, value) => (typeof value === 'bigint' ? value.toString() : value), 2));
    return check.ok ? 0 : 1;
  },
  { logLevel: 'warn' },
);
