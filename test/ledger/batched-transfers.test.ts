import { beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  ensurePrepaidAccount,
  getAccountBalance,
  ledgerBatchStats,
  listAccountTransfers,
  pickSystemAccount,
  postPendingWithFee,
  reportLedgerBatchFailures,
  reserveFromFirst,
  transfer,
  voidPending,
  type BatchStats,
} from '../../shared/ledger/index.js';
import { errorOf, expectLedgerBalanced, fundedWallet as fundedWalletIn, ledgerKey, useLedgerDatabase } from '../support/ledger.js';

/**
 * Outside a transaction the paid path's holds and posts are group-committed: calls arriving while
 * batches are in the database go together in one statement. These tests race many calls so that
 * batches form, and check both the money and that the batches (not the one-by-one fallback) did it.
 */
const database = useLedgerDatabase();
let em: EntityManager;
beforeAll(() => {
  em = database().em();
});
const key = ledgerKey;

const fundedWallet = (micros: bigint) => fundedWalletIn(em, micros);

async function statsDelta<T>(work: () => Promise<T>): Promise<{ result: T; reserves: BatchStats; posts: BatchStats }> {
  const before = await ledgerBatchStats(em);
  const result = await work();
  const after = await ledgerBatchStats(em);
  const minus = (a: BatchStats, b: BatchStats): BatchStats => ({
    batches: a.batches - b.batches,
    settled: a.settled - b.settled,
    alone: a.alone - b.alone,
    handedBack: a.handedBack - b.handedBack,
    failedBatches: a.failedBatches - b.failedBatches,
    largestBatch: a.largestBatch,
  });
  return { result, reserves: minus(after.reserves, before.reserves), posts: minus(after.posts, before.posts) };
}

const hold = (wallet: string, payable: string, amount: bigint, idempotencyKey = key(), preferred: string = randomUUID()) =>
  reserveFromFirst(database().em(), { idempotencyKey, debits: [preferred, wallet], credit: payable, amount, kind: 'charge', reference: 'call' });

async function settle(pendingId: string, amount: bigint, fee: bigint, feeAccount: string, idempotencyKey = key()) {
  return postPendingWithFee(database().em(), { pendingId, idempotencyKey, amount, fee, feeAccount, feeIdempotencyKey: `${idempotencyKey}:fee`, kind: 'charge', metadata: { n: 1 } });
}

describe('group-committed holds', () => {
  it('holds for 60 callers racing together are batched, each exact', async () => {
    const publisherId = randomUUID();
    const wallets = await Promise.all(Array.from({ length: 60 }, () => fundedWallet(1_000n)));
    const { result, reserves } = await statsDelta(() =>
      Promise.all(wallets.map(async (wallet) => hold(wallet, await pickSystemAccount(em, 'publisher_payable', { publisherId, shardKey: wallet }), 400n))),
    );
    expect(reserves).toMatchObject({ failedBatches: 0, handedBack: 0 });
    expect(reserves.settled + reserves.alone).toBe(60);
    expect(reserves.settled).toBeGreaterThan(reserves.alone);
    result.forEach((held, index) => expect(held).toMatchObject({ type: 'reserve', state: 'pending', amount: 400n, debitAccountId: wallets[index], replayed: false }));
    for (const wallet of wallets) expect(await getAccountBalance(em, wallet)).toMatchObject({ posted: 1_000n, held: 400n, available: 600n });
    await expectLedgerBalanced(em);
  });

  it('200 holds racing on one wallet that covers 50: exactly 50 hold, 150 get 402, nothing is left', async () => {
    const wallet = await fundedWallet(50_000n);
    const payable = await pickSystemAccount(em, 'publisher_payable', { publisherId: randomUUID(), shardKey: 'hot' });
    const { result, reserves } = await statsDelta(() =>
      Promise.all(Array.from({ length: 200 }, () => hold(wallet, payable, 1_000n).then(() => 'held', (error) => error.code))),
    );
    expect(result.filter((outcome) => outcome === 'held')).toHaveLength(50);
    expect(result.filter((outcome) => outcome === 'insufficient_balance')).toHaveLength(150);
    expect(reserves.failedBatches).toBe(0);
    expect(reserves.settled).toBeGreaterThan(1);
    expect(await getAccountBalance(em, wallet)).toMatchObject({ posted: 50_000n, held: 50_000n, available: 0n });
    await expectLedgerBalanced(em);
  });

  it('prepaid credits are spent first within a batch, then the wallet, then 402', async () => {
    const userId = randomUUID();
    const publisherId = randomUUID();
    const wallet = await fundedWallet(3n);
    const prepaid = await ensurePrepaidAccount(em, userId, publisherId);
    await transfer(em, { idempotencyKey: key(), debit: await pickSystemAccount(em, 'onchain_clearing'), credit: prepaid, amount: 4n, kind: 'deposit' });
    const payable = await pickSystemAccount(em, 'publisher_payable', { publisherId, shardKey: 'mix' });
    const results = await Promise.all(Array.from({ length: 10 }, () => hold(wallet, payable, 1n, key(), prepaid).then((held) => held.debitAccountId, (error) => error.code)));
    expect(results.filter((outcome) => outcome === prepaid)).toHaveLength(4);
    expect(results.filter((outcome) => outcome === wallet)).toHaveLength(3);
    expect(results.filter((outcome) => outcome === 'insufficient_balance')).toHaveLength(3);
    await expectLedgerBalanced(em);
  });

  it('the same key racing in one batch holds once and answers both with the same transfer', async () => {
    const wallet = await fundedWallet(1_000n);
    const payable = await pickSystemAccount(em, 'publisher_payable', { publisherId: randomUUID(), shardKey: 'replay' });
    const idempotencyKey = key();
    const reported: boolean[] = [];
    await reportLedgerBatchFailures(em, ({ racingReplay }) => reported.push(racingReplay));
    // A first hold goes out alone; the six queue behind it and go together, duplicates and all.
    const first = hold(await fundedWallet(1_000n), payable, 100n);
    const results = await Promise.all(Array.from({ length: 6 }, () => hold(wallet, payable, 100n, idempotencyKey)));
    await first;
    await reportLedgerBatchFailures(em, null);
    expect(reported.length).toBeGreaterThan(0);
    expect(reported.every((racing) => racing)).toBe(true);
    expect(new Set(results.map((held) => held.id)).size).toBe(1);
    expect((await getAccountBalance(em, wallet)).held).toBe(100n);
    await expectLedgerBalanced(em);
  });
});

describe('group-committed posts', () => {
  it('40 posts from one wallet settled together: balances exact, each balance-after as if one by one', async () => {
    const wallet = await fundedWallet(100_000n);
    const publisherId = randomUUID();
    const revenue = await pickSystemAccount(em, 'platform_revenue', { shardKey: 'batched-posts' });
    const revenueBefore = (await getAccountBalance(em, revenue)).posted;
    const holds = await Promise.all(Array.from({ length: 40 }, async (_, index) =>
      hold(wallet, await pickSystemAccount(em, 'publisher_payable', { publisherId, shardKey: String(index % 3) }), 1_000n),
    ));
    const { result: posts, posts: stats } = await statsDelta(() => Promise.all(holds.map((held) => settle(held.id, 900n, 100n, revenue))));
    expect(stats).toMatchObject({ failedBatches: 0, handedBack: 0 });
    expect(stats.settled + stats.alone).toBe(40);
    expect(stats.settled).toBeGreaterThan(stats.alone);
    expect(await getAccountBalance(em, wallet)).toMatchObject({ posted: 64_000n, held: 0n, available: 64_000n });
    expect((await getAccountBalance(em, revenue)).posted - revenueBefore).toBe(4_000n);
    // Every post saw a different balance after it: 99,100, 98,200, ... down to 64,000.
    const after = posts.map((posted) => posted.debitBalanceAfter!).sort((a, b) => (a < b ? 1 : -1));
    expect(after).toEqual(Array.from({ length: 40 }, (_, index) => 100_000n - 900n * BigInt(index + 1)));
    posts.forEach((posted, index) => expect(posted).toMatchObject({ type: 'post', state: 'posted', amount: 900n, pendingId: holds[index]!.id, kind: 'charge', reference: 'call', metadata: { n: 1 } }));
    await expectLedgerBalanced(em);
  });

  it('a payable shard earns the price less the fee, and the fee transfers record both balances after', async () => {
    const wallet = await fundedWallet(10_000n);
    const payable = await pickSystemAccount(em, 'publisher_payable', { publisherId: randomUUID(), shardKey: 'one' });
    const revenue = await pickSystemAccount(em, 'platform_revenue', { shardKey: 'fee-balances' });
    const revenueBefore = (await getAccountBalance(em, revenue)).posted;
    const holds = await Promise.all(Array.from({ length: 10 }, () => hold(wallet, payable, 500n)));
    await Promise.all(holds.map((held) => settle(held.id, 500n, 50n, revenue)));
    expect((await getAccountBalance(em, payable)).posted).toBe(4_500n);
    const fees = (await listAccountTransfers(em, [payable], { limit: 50, offset: 0 })).filter((moved) => moved.kind === 'gateway_fee');
    expect(fees.map((fee) => fee.debitBalanceAfter).sort((a, b) => (a! < b! ? -1 : 1))).toEqual(Array.from({ length: 10 }, (_, index) => 450n * BigInt(index + 1)));
    expect(fees.map((fee) => fee.creditBalanceAfter! - revenueBefore).sort((a, b) => (a < b ? -1 : 1))).toEqual(Array.from({ length: 10 }, (_, index) => 50n * BigInt(index + 1)));
    await expectLedgerBalanced(em);
  });

  it('two posts and a void racing for one reserve: exactly one wins', async () => {
    const wallet = await fundedWallet(5_000n);
    const payable = await pickSystemAccount(em, 'publisher_payable', { publisherId: randomUUID(), shardKey: 'race' });
    const revenue = await pickSystemAccount(em, 'platform_revenue');
    const held = await hold(wallet, payable, 3_000n);
    const results = await Promise.all([
      settle(held.id, 3_000n, 30n, revenue),
      settle(held.id, 1_000n, 10n, revenue),
      voidPending(database().em(), { pendingId: held.id, idempotencyKey: key() }),
    ].map((work) => errorOf(work)));
    expect(results.filter((result) => result === null)).toHaveLength(1);
    expect(results.filter((result) => result?.code === 'pending_transfer_closed')).toHaveLength(2);
    await expectLedgerBalanced(em);
  });

  it('a reserve id that only looks like a uuid is 404 and never reaches (or fails) a batch', async () => {
    const revenue = await pickSystemAccount(em, 'platform_revenue');
    const lookalike = '------------------------------------';
    const { result, posts } = await statsDelta(() =>
      Promise.all([settle(lookalike, 1n, 1n, revenue), voidPending(database().em(), { pendingId: lookalike, idempotencyKey: key() })].map((work) => errorOf(work))),
    );
    expect(result).toEqual([{ status: 404, code: 'pending_transfer_not_found' }, { status: 404, code: 'pending_transfer_not_found' }]);
    expect(posts.batches + posts.alone).toBe(0);
  });

  it('a batch that fails whole (an unknown fee account) moves nothing; its other items are settled one by one', async () => {
    const wallet = await fundedWallet(10_000n);
    const payable = await pickSystemAccount(em, 'publisher_payable', { publisherId: randomUUID(), shardKey: 'fails' });
    const revenue = await pickSystemAccount(em, 'platform_revenue');
    const holds = await Promise.all(Array.from({ length: 12 }, () => hold(wallet, payable, 100n)));
    const reported: { statement: string; items: number; code: string; racingReplay: boolean }[] = [];
    await reportLedgerBatchFailures(em, ({ statement, items, error, racingReplay }) =>
      reported.push({ statement, items, code: (error as any).code, racingReplay }),
    );
    const { result, posts } = await statsDelta(() =>
      Promise.all(holds.map((held, index) => errorOf(settle(held.id, 100n, 10n, index === 6 ? randomUUID() : revenue)).catch((error) => error.message))),
    );
    await reportLedgerBatchFailures(em, null);
    expect(posts.failedBatches).toBeGreaterThan(0);
    expect(reported).toContainEqual({ statement: 'posts', items: expect.any(Number), code: '23503', racingReplay: false });
    expect(result.filter((outcome) => outcome === null)).toHaveLength(11);
    expect(await getAccountBalance(em, wallet)).toMatchObject({ posted: 8_900n, held: 100n });
    await expectLedgerBalanced(em);
  });

  it('holds, posts, voids and plain transfers on shared accounts, all at once, keep the ledger exact', async () => {
    const wallets = await Promise.all(Array.from({ length: 8 }, () => fundedWallet(20_000n)));
    const publisherId = randomUUID();
    const revenue = await pickSystemAccount(em, 'platform_revenue');
    const payable = (index: number) => pickSystemAccount(em, 'publisher_payable', { publisherId, shardKey: String(index % 4) });
    const { result: outcomes, reserves, posts } = await statsDelta(() => Promise.all(Array.from({ length: 160 }, async (_, index) => {
      const wallet = wallets[index % wallets.length]!;
      if (index % 5 === 4) {
        return transfer(database().em(), { idempotencyKey: key(), debit: wallet, credit: revenue, amount: 300n, kind: 'charge' }).then(() => 300n);
      }
      const held = await hold(wallet, await payable(index), 500n);
      if (index % 5 === 3) return voidPending(database().em(), { pendingId: held.id, idempotencyKey: key() }).then(() => 0n);
      return settle(held.id, 400n, 40n, revenue).then(() => 400n);
    })));
    // Batches and single statements lock accounts in the same order: no deadlock failed a batch.
    expect(reserves.failedBatches + posts.failedBatches).toBe(0);
    const spent = outcomes.reduce((sum, amount) => sum + amount, 0n);
    const left = await Promise.all(wallets.map((wallet) => getAccountBalance(em, wallet)));
    expect(left.reduce((sum, balance) => sum + balance.posted, 0n)).toBe(8n * 20_000n - spent);
    left.forEach((balance) => expect(balance.held).toBe(0n));
    await expectLedgerBalanced(em);
  });
});
