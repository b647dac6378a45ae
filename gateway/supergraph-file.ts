import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

/** gateway/supergraph.graphql in the source tree, whether running from gateway/ (tests) or dist/gateway/. */
export function supergraphPath(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.join(here, 'supergraph.graphql'), path.join(here, '..', '..', 'gateway', 'supergraph.graphql')];
  return candidates.find((candidate) => existsSync(candidate)) ?? candidates[candidates.length - 1]!;
}

export function readSupergraph(): string {
  const file = supergraphPath();
  if (!existsSync(file)) throw new Error(`No supergraph at ${file}: run \`npm run compose\``);
  return readFileSync(file, 'utf8');
}
