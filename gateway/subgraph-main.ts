import 'reflect-metadata';
import { runSubgraphProcess } from '../shared/subgraph-server.js';
import { subgraphModules } from './subgraphs.js';

/**
 * `node dist/gateway/subgraph-main.js <name>`: one subgraph alone (split mode), reached by the
 * gateway through SUBGRAPH_<NAME>_URL. It knows every module of the platform (to ask the others'
 * ports where they run) but connects only its own.
 */
const name = process.argv[2];
const module = subgraphModules.find((candidate) => candidate.name === name);
if (!module) {
  console.error(`Usage: node dist/gateway/subgraph-main.js <subgraph>, one of: ${subgraphModules.map((candidate) => candidate.name).join(', ')}`);
  process.exit(2);
}
await runSubgraphProcess(module, subgraphModules);
