import 'reflect-metadata';
import { runSubgraphProcess } from '../../shared/subgraph-server.js';
import { accountsSubgraph } from './index.js';

/** `node dist/subgraphs/accounts/server.js`: this subgraph alone, reached by the gateway through SUBGRAPH_ACCOUNTS_URL. */
await runSubgraphProcess(accountsSubgraph);
