import { afterEach } from '@jest/globals';
import type { EntityManager } from '@mikro-orm/postgresql';
import { registerAgent, uniqueEmail, type Platformish } from './accounts.js';
import { expectLedgerBalanced } from './ledger.js';
import type { TestPlatform } from './platform.js';

/** Registers the ledger invariant check after every test of the file. */
export function checkLedgerAfterEach(platform: () => TestPlatform) {
  afterEach(async () => {
    await expectLedgerBalanced(platform().platform.services.orm.em.fork() as EntityManager);
  });
}

/** An agent with an e-mail, verified through the mailed link, acting with its API key. */
export async function verifiedAgent(t: Platformish) {
  const email = uniqueEmail('agent');
  const agent = await registerAgent(t, { name: 'wallet agent', email });
  await verifyMailedLink(t, email);
  return { ...agent, email };
}

export async function verifyMailedLink(t: Platformish, email: string) {
  const token = await t.mailbox.waitForToken(email, 'verify-email');
  const verified = await t.api.post('/auth/verify-email', { token });
  if (verified.status !== 200) throw new Error(`verify failed: ${JSON.stringify(verified.body)}`);
}
