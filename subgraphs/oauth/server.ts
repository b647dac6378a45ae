import 'reflect-metadata';
import { runSubgraphProcess } from '../../shared/subgraph-server.js';
import { oauthSubgraph } from './index.js';

/** `node dist/subgraphs/oauth/server.js`: this subgraph alone, reached by the gateway through SUBGRAPH_OAUTH_URL. */
await runSubgraphProcess(oauthSubgraph);
