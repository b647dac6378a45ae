import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ensureWalletAccount, pickSystemAccount, reserve, voidPending } from '../../shared/ledger/index.js';
import { holdCallCharge } from '../../subgraphs/marketplace/proxy/charging.js';
import { ORPHANED_HOLDS_SQL, releaseOrphanedHolds } from '../../subgraphs/marketplace/proxy/orphaned-holds.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { registerAgent } from '../support/accounts.js';
import { fundPrepaid, fundWallet } from '../support/funding.js';
import { checkLedgerAfterEach } from '../support/wallet.js';

let t: TestPlatform;
beforeAll(async () => {
  t = await startTestPlatform();
});
afterAll(() => t.close());
checkLedgerAfterEach(() => t);

const em = () => t.platform.services.orm.em.fork() as EntityManager;
const available = async (key: string) => (await t.api.get('/wallet/balance', { token: key })).body.data.available;

describe('holds orphaned by a process that died mid-call', () => {
  it('are released after the expiry, fresh ones are left alone, and a second sweep moves nothing', async () => {
    const agent = await registerAgent(t);
    await fundWallet(t, agent.id, '1.00');
    const publisherId = randomUUID();
    const hold = (callId: string) => holdCallCharge(em(), { callId, userId: agent.id, publisherId, amount: 300_000n, metadata: {} });
    const orphan = await hold(randomUUID());
    await hold(randomUUID());
    expect(await available(agent.api_key)).toBe('0.40');

    await em().execute(`update ledger_transfer set created_at = now() - interval '1 hour' where id = ?`, [orphan.parts[0].pendingId]);
    expect(await releaseOrphanedHolds(em(), 600)).toBe(1);
    expect(await available(agent.api_key)).toBe('0.70');
    expect(await releaseOrphanedHolds(em(), 600)).toBe(0);

    // The fresh hold is released the normal way so the ledger ends balanced and empty of holds.
    await em().execute(`update ledger_transfer set created_at = now() - interval '1 hour' where type = 'reserve' and state = 'pending' and debit_account_id = ?`, [orphan.parts[0].debitAccountId]);
    expect(await releaseOrphanedHolds(em(), 600)).toBe(1);
    expect(await available(agent.api_key)).toBe('1.00');
  });

  it('a split hold (prepaid credits, then the wallet) is released whole: each part by its own release key', async () => {
    const agent = await registerAgent(t);
    await fundWallet(t, agent.id, '1.00');
    const publisherId = randomUUID();
    await fundPrepaid(t, agent.id, publisherId, '0.10');
    const orphan = await holdCallCharge(em(), { callId: randomUUID(), userId: agent.id, publisherId, amount: 300_000n, metadata: {} });
    expect(orphan.parts.map((part) => part.amount)).toEqual([100_000n, 200_000n]);
    await em().execute(`update ledger_transfer set created_at = now() - interval '1 hour' where id in (?, ?)`, orphan.parts.map((part) => part.pendingId));
    expect(await releaseOrphanedHolds(em(), 600)).toBe(2);
    expect((await t.api.get('/wallet/balance', { token: agent.api_key })).body.data).toMatchObject({ available: '1.00', pending: '0.00', prepaid_credits: [{ balance: '0.10' }] });
    expect(await releaseOrphanedHolds(em(), 600)).toBe(0);
  });

  it('only a call\'s holds are swept: a charge held some other way is left alone, and does not keep a call\'s orphan waiting', async () => {
    const agent = await registerAgent(t);
    await fundWallet(t, agent.id, '1.00');
    const wallet = await ensureWalletAccount(em(), agent.id);
    const payable = await pickSystemAccount(em(), 'publisher_payable', { publisherId: randomUUID(), shardKey: 'test' });
    const other = await reserve(em(), { idempotencyKey: `other:${randomUUID()}`, debit: wallet, credit: payable, amount: 100_000n, kind: 'charge' });
    const orphan = await holdCallCharge(em(), { callId: randomUUID(), userId: agent.id, publisherId: randomUUID(), amount: 300_000n, metadata: {} });
    await em().execute(`update ledger_transfer set created_at = now() - interval '2 hours' where id = ?`, [other.id]);
    await em().execute(`update ledger_transfer set created_at = now() - interval '1 hour' where id = ?`, [orphan.parts[0].pendingId]);
    // Not even read: 500 of them would fill every batch.
    expect((await em().execute(ORPHANED_HOLDS_SQL, [600])).map((row) => row.id)).not.toContain(other.id);
    expect(await releaseOrphanedHolds(em(), 600)).toBe(1);
    expect(await available(agent.api_key)).toBe('0.90');
    await voidPending(em(), { pendingId: other.id, idempotencyKey: `other:${randomUUID()}:void` });
  });

  it('are found through the index of pending holds, not by reading the whole transfer history', async () => {
    const plan = await em().transactional(async (tx) => {
      await tx.execute('set local enable_seqscan = off');
      return tx.execute(`explain ${ORPHANED_HOLDS_SQL.replace('?', '600')}`);
    });
    expect(plan.map((row) => row['QUERY PLAN']).join('\n')).toContain('ledger_transfer_pending_holds_index');
  });
});
