import 'reflect-metadata';
import { runSubgraphProcess } from '../../shared/subgraph-server.js';
import { evalSubgraph } from './index.js';

/** `node dist/subgraphs/eval/server.js`: this subgraph alone, reached by the gateway through SUBGRAPH_EVAL_URL. */
await runSubgraphProcess(evalSubgraph);
