import 'reflect-metadata';
import { runSubgraphProcess } from '../../shared/subgraph-server.js';
import { billingSubgraph } from './index.js';

/** `node dist/subgraphs/billing/server.js`: this subgraph alone, reached by the gateway through SUBGRAPH_BILLING_URL. */
await runSubgraphProcess(billingSubgraph);
