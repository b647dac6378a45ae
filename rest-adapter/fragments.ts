import { accountsFragments } from './routes/accounts.fragments.js';
import { databasesFragments } from './routes/databases.fragments.js';
import { walletFragments } from './routes/wallet.fragments.js';
import { marketplaceFragments } from './routes/marketplace.fragments.js';
import { federationFragments } from './routes/federation.fragments.js';
import { evalFragments } from './routes/eval.fragments.js';
import { oauthFragments } from './routes/oauth.fragments.js';

/** Named selections shared by REST operations, so each record has one field list. */
const FRAGMENTS: Record<string, string> = { ...accountsFragments, ...databasesFragments, ...walletFragments, ...marketplaceFragments, ...federationFragments, ...evalFragments, ...oauthFragments };

const SPREAD = /\.\.\.\s*([A-Za-z_][A-Za-z0-9_]*)/g;

/** Appends every fragment the document spreads, transitively. */
export function withFragments(document: string): string {
  const included = new Set<string>();
  const pending = [document];
  while (pending.length > 0) {
    for (const match of pending.pop()!.matchAll(SPREAD)) {
      const name = match[1]!;
      if (name === 'on' || included.has(name)) continue;
      const fragment = FRAGMENTS[name];
      if (!fragment) throw new Error(`Unknown fragment ${name}`);
      included.add(name);
      pending.push(fragment);
    }
  }
  return [document, ...[...included].map((name) => FRAGMENTS[name])].join('\n');
}
