import 'reflect-metadata';
import { runSubgraphProcess } from '../../shared/subgraph-server.js';
import { walletSubgraph } from './index.js';

/** `node dist/subgraphs/wallet/server.js`: this subgraph alone, reached by the gateway through SUBGRAPH_WALLET_URL. */
await runSubgraphProcess(walletSubgraph);
