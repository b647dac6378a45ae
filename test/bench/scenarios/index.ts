import type { BenchScenario } from '../scenario.js';
import { authMeScenario } from './auth-me.js';
import { baselineScenario } from './baseline.js';
import { ledgerScenario } from './ledger.js';
import { publishersScenario } from './publishers.js';
import { paidProxyScenario } from './paid-proxy.js';
import { outboxScenario } from './outbox.js';
import { federationScenario } from './federation.js';
import { evalScenario } from './eval.js';
import { invoicesScenario } from './invoices.js';
import { databasesScenario } from './databases.js';
import { mcpScenario } from './mcp.js';

/** Scenarios run in this order by `npm run bench`; each domain adds its file here. */
export const scenarios: BenchScenario[] = [baselineScenario, authMeScenario, ledgerScenario, publishersScenario, paidProxyScenario, federationScenario, evalScenario, databasesScenario, invoicesScenario, mcpScenario, outboxScenario];
