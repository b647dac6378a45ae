import { writeFileSync } from 'node:fs';
import { composeSupergraph } from './compose.js';
import { supergraphPath } from './supergraph-file.js';

writeFileSync(supergraphPath(), await composeSupergraph());
console.log(`supergraph written to ${supergraphPath()}`);
process.exit(0);
