import 'reflect-metadata';
import { runSubgraphProcess } from '../../shared/subgraph-server.js';
import { marketplaceSubgraph } from './index.js';

/** `node dist/subgraphs/marketplace/server.js`: this subgraph alone, reached by the gateway through SUBGRAPH_MARKETPLACE_URL. */
await runSubgraphProcess(marketplaceSubgraph);
