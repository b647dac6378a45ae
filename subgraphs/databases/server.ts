import 'reflect-metadata';
import { runSubgraphProcess } from '../../shared/subgraph-server.js';
import { databasesSubgraph } from './index.js';

/** `node dist/subgraphs/databases/server.js`: this subgraph alone, reached by the gateway through SUBGRAPH_DATABASES_URL. */
await runSubgraphProcess(databasesSubgraph);
