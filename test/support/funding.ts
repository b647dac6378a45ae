import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ensurePrepaidAccount, ensureWalletAccount, pickSystemAccount, transfer } from '../../shared/ledger/index.js';
import { parsePositiveMoney } from '../../shared/money.js';
import type { TestPlatform } from './platform.js';
import { registerAgent } from './accounts.js';

const emOf = (t: TestPlatform) => t.platform.services.orm.em.fork() as EntityManager;

/** Credits a wallet from the promotions account, as a bonus would (test setup through the real ledger). */
export async function fundWallet(t: TestPlatform, userId: string, amount: string): Promise<void> {
  const em = emOf(t);
  await transfer(em, {
    idempotencyKey: `test-funding:${randomUUID()}`,
    debit: await pickSystemAccount(em, 'promotions'),
    credit: await ensureWalletAccount(em, userId),
    amount: parsePositiveMoney(amount),
    kind: 'bonus',
  });
}

/** Credits a caller's prepaid account with one publisher, as an on-chain deposit would. */
export async function fundPrepaid(t: TestPlatform, userId: string, publisherId: string, amount: string): Promise<void> {
  const em = emOf(t);
  await transfer(em, {
    idempotencyKey: `test-prepaid:${randomUUID()}`,
    debit: await pickSystemAccount(em, 'onchain_clearing'),
    credit: await ensurePrepaidAccount(em, userId, publisherId),
    amount: parsePositiveMoney(amount),
    kind: 'deposit',
  });
}

/** A fresh agent whose wallet holds `amount` (1.00 by default): a paying caller. */
export async function fundedAgent(t: TestPlatform, amount = '1.00') {
  const agent = await registerAgent(t, { name: 'caller' });
  await fundWallet(t, agent.id, amount);
  return agent;
}
