import 'reflect-metadata';
import { runSubgraphProcess } from '../../shared/subgraph-server.js';
import { federationSubgraph } from './index.js';

/** `node dist/subgraphs/federation/server.js`: this subgraph alone, reached by the gateway through SUBGRAPH_FEDERATION_URL. */
await runSubgraphProcess(federationSubgraph);
