import { beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  getAccountBalance,
  getSystemBalance,
  pickSystemAccount,
  postPending,
  reserve,
  transfer,
  voidPending,
} from '../../shared/ledger/index.js';
import { errorOf, expectLedgerBalanced, fundedWallet as fundedWalletIn, ledgerKey, useLedgerDatabase } from '../support/ledger.js';

const database = useLedgerDatabase();
let em: EntityManager;
beforeAll(() => {
  em = database().em();
});
const key = ledgerKey;

const fundedWallet = (micros: bigint) => fundedWalletIn(em, micros);


describe('transfers', () => {
  it('50 concurrent debits on a balance covering 20 let exactly 20 through and leave 0', async () => {
    const wallet = await fundedWallet(20_000n);
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, async () =>
        transfer(database().em(), { idempotencyKey: key(), debit: wallet, credit: await pickSystemAccount(em, 'platform_revenue'), amount: 1_000n, kind: 'charge' }),
      ),
    );
    const succeeded = results.filter((result) => result.status === 'fulfilled');
    const refused = results.filter((result) => result.status === 'rejected') as PromiseRejectedResult[];
    expect(succeeded).toHaveLength(20);
    expect(new Set(refused.map((result) => result.reason.code))).toEqual(new Set(['insufficient_balance']));
    expect(refused[0]!.reason.status).toBe(402);
    expect((await getAccountBalance(em, wallet)).posted).toBe(0n);
    await expectLedgerBalanced(em);
  });

  it('records the balance after the movement on both sides', async () => {
    const wallet = await fundedWallet(5_000n);
    const moved = await transfer(em, { idempotencyKey: key(), debit: wallet, credit: await pickSystemAccount(em, 'platform_revenue'), amount: 1_500n, kind: 'charge', reference: 'call-1', metadata: { path: '/x' } });
    expect(moved).toMatchObject({ amount: 1_500n, debitBalanceAfter: 3_500n, state: 'posted', type: 'transfer', reference: 'call-1', metadata: { path: '/x' }, replayed: false });
  });

  it('a debit larger than the balance is refused with 402 and moves nothing', async () => {
    const wallet = await fundedWallet(999n);
    const revenue = await pickSystemAccount(em, 'platform_revenue');
    expect(await errorOf(transfer(em, { idempotencyKey: key(), debit: wallet, credit: revenue, amount: 1_000n, kind: 'charge' }))).toEqual({ status: 402, code: 'insufficient_balance' });
    expect((await getAccountBalance(em, wallet)).posted).toBe(999n);
  });

  it('a transfer or reserve to an account that does not exist fails whole: the debit side keeps its money', async () => {
    const wallet = await fundedWallet(1_000n);
    const nowhere = randomUUID();
    await expect(transfer(em, { idempotencyKey: key(), debit: wallet, credit: nowhere, amount: 100n, kind: 'charge' })).rejects.toThrow('Ledger account missing');
    await expect(reserve(em, { idempotencyKey: key(), debit: wallet, credit: nowhere, amount: 100n, kind: 'charge' })).rejects.toThrow('Ledger account missing');
    expect(await getAccountBalance(em, wallet)).toMatchObject({ posted: 1_000n, available: 1_000n });
    await expectLedgerBalanced(em);
  });

  it('refuses zero and negative amounts and a transfer to the same account', async () => {
    const wallet = await fundedWallet(0n);
    const revenue = await pickSystemAccount(em, 'platform_revenue');
    expect(await errorOf(transfer(em, { idempotencyKey: key(), debit: revenue, credit: wallet, amount: 0n, kind: 'x' }))).toEqual({ status: 400, code: 'invalid_amount' });
    expect(await errorOf(transfer(em, { idempotencyKey: key(), debit: revenue, credit: wallet, amount: -5n, kind: 'x' }))).toEqual({ status: 400, code: 'invalid_amount' });
    expect(await errorOf(transfer(em, { idempotencyKey: key(), debit: wallet, credit: wallet, amount: 5n, kind: 'x' }))).toEqual({ status: 400, code: 'same_account' });
  });

  it('a shard key always names the same shard; without one shards are spread', async () => {
    const ids = await Promise.all(Array.from({ length: 5 }, () => pickSystemAccount(em, 'platform_revenue', { shardKey: 'call-42' })));
    expect(new Set(ids).size).toBe(1);
    const spread = await Promise.all(Array.from({ length: 64 }, () => pickSystemAccount(em, 'platform_revenue')));
    expect(new Set(spread).size).toBeGreaterThan(4);
    const payables = await pickSystemAccount(em, 'publisher_payable', { publisherId: randomUUID(), shardKey: 'x' });
    expect(payables).not.toBe(await pickSystemAccount(em, 'publisher_payable', { publisherId: randomUUID(), shardKey: 'x' }));
  });

  it('a system account is the sum of its shards', async () => {
    const before = await getSystemBalance(em, 'card_clearing');
    const wallet = await fundedWallet(0n);
    for (let i = 0; i < 10; i++) {
      await transfer(em, { idempotencyKey: key(), debit: await pickSystemAccount(em, 'card_clearing'), credit: wallet, amount: 100n, kind: 'deposit' });
    }
    expect((await getSystemBalance(em, 'card_clearing')).posted - before.posted).toBe(-1_000n);
  });
});

describe('idempotency', () => {
  it('a replay with the same key returns the first result and moves nothing, even concurrently', async () => {
    const wallet = await fundedWallet(0n);
    const idempotencyKey = key();
    const input = { idempotencyKey, debit: await pickSystemAccount(em, 'promotions', { shardKey: idempotencyKey }), credit: wallet, amount: 700n, kind: 'bonus' };
    const results = await Promise.all(Array.from({ length: 8 }, () => transfer(database().em(), input)));
    expect(new Set(results.map((result) => result.id)).size).toBe(1);
    expect(results.filter((result) => !result.replayed)).toHaveLength(1);
    const again = await transfer(em, input);
    expect(again).toMatchObject({ id: results[0]!.id, replayed: true, creditBalanceAfter: 700n });
    expect((await getAccountBalance(em, wallet)).posted).toBe(700n);
  });

  it('the same key with different parameters is refused with 409', async () => {
    const wallet = await fundedWallet(0n);
    const promotions = await pickSystemAccount(em, 'promotions');
    const input = { idempotencyKey: key(), debit: promotions, credit: wallet, amount: 700n, kind: 'bonus' };
    await transfer(em, input);
    expect(await errorOf(transfer(em, { ...input, amount: 701n }))).toEqual({ status: 409, code: 'idempotency_conflict' });
    expect(await errorOf(reserve(em, input))).toEqual({ status: 409, code: 'idempotency_conflict' });
  });

  it('a replayed debit answers its first result even when the balance is now spent', async () => {
    const wallet = await fundedWallet(1_000n);
    const input = { idempotencyKey: key(), debit: wallet, credit: await pickSystemAccount(em, 'platform_revenue'), amount: 1_000n, kind: 'charge' };
    const first = await transfer(em, input);
    expect(await transfer(em, input)).toMatchObject({ id: first.id, replayed: true });
  });

  it('inside a caller transaction a replay is answered from the stored transfer', async () => {
    const wallet = await fundedWallet(0n);
    const input = { idempotencyKey: key(), debit: await pickSystemAccount(em, 'promotions'), credit: wallet, amount: 300n, kind: 'bonus' };
    const first = await database().em().transactional((tx) => transfer(tx as EntityManager, input));
    const second = await database().em().transactional((tx) => transfer(tx as EntityManager, input));
    expect(second).toMatchObject({ id: first.id, replayed: true });
    expect((await getAccountBalance(em, wallet)).posted).toBe(300n);
  });
});

describe('reserves', () => {
  it('a reserve holds the amount; posting part of it releases the rest', async () => {
    const wallet = await fundedWallet(10_000n);
    const revenue = await pickSystemAccount(em, 'platform_revenue');
    const held = await reserve(em, { idempotencyKey: key(), debit: wallet, credit: revenue, amount: 4_000n, kind: 'charge' });
    expect(held.state).toBe('pending');
    expect(await getAccountBalance(em, wallet)).toMatchObject({ posted: 10_000n, held: 4_000n, available: 6_000n });
    const postInput = { pendingId: held.id, amount: 2_500n, idempotencyKey: key() };
    const posted = await postPending(em, postInput);
    expect(posted).toMatchObject({ type: 'post', amount: 2_500n, pendingId: held.id, kind: 'charge', debitBalanceAfter: 7_500n });
    expect(await getAccountBalance(em, wallet)).toMatchObject({ posted: 7_500n, held: 0n, available: 7_500n });
    expect(await postPending(em, postInput)).toMatchObject({ id: posted.id, replayed: true });
    expect(await errorOf(postPending(em, { ...postInput, idempotencyKey: key() }))).toEqual({ status: 409, code: 'pending_transfer_closed' });
    expect(await errorOf(voidPending(em, { pendingId: held.id, idempotencyKey: key() }))).toEqual({ status: 409, code: 'pending_transfer_closed' });
    await expectLedgerBalanced(em);
  });

  it('a reserve counts against the balance: a debit that would overdraw with it is refused', async () => {
    const wallet = await fundedWallet(5_000n);
    const revenue = await pickSystemAccount(em, 'platform_revenue');
    await reserve(em, { idempotencyKey: key(), debit: wallet, credit: revenue, amount: 4_000n, kind: 'charge' });
    expect(await errorOf(transfer(em, { idempotencyKey: key(), debit: wallet, credit: revenue, amount: 1_001n, kind: 'charge' }))).toEqual({ status: 402, code: 'insufficient_balance' });
    expect(await errorOf(reserve(em, { idempotencyKey: key(), debit: wallet, credit: revenue, amount: 1_001n, kind: 'charge' }))).toEqual({ status: 402, code: 'insufficient_balance' });
  });

  it('voiding a reserve releases all of it; posting more than reserved is refused', async () => {
    const wallet = await fundedWallet(5_000n);
    const revenue = await pickSystemAccount(em, 'platform_revenue');
    const held = await reserve(em, { idempotencyKey: key(), debit: wallet, credit: revenue, amount: 3_000n, kind: 'charge' });
    expect(await errorOf(postPending(em, { pendingId: held.id, amount: 3_001n, idempotencyKey: key() }))).toEqual({ status: 400, code: 'amount_exceeds_reserve' });
    const voided = await voidPending(em, { pendingId: held.id, idempotencyKey: key() });
    expect(voided).toMatchObject({ type: 'void', state: 'voided', amount: 3_000n });
    expect(await getAccountBalance(em, wallet)).toMatchObject({ posted: 5_000n, held: 0n, available: 5_000n });
    expect(await errorOf(postPending(em, { pendingId: randomUUID(), amount: 1n, idempotencyKey: key() }))).toEqual({ status: 404, code: 'pending_transfer_not_found' });
  });

  it('a post and a void racing for one reserve: exactly one wins', async () => {
    const wallet = await fundedWallet(5_000n);
    const held = await reserve(em, { idempotencyKey: key(), debit: wallet, credit: await pickSystemAccount(em, 'platform_revenue'), amount: 3_000n, kind: 'charge' });
    const results = await Promise.allSettled([
      postPending(database().em(), { pendingId: held.id, amount: 3_000n, idempotencyKey: key() }),
      voidPending(database().em(), { pendingId: held.id, idempotencyKey: key() }),
      postPending(database().em(), { pendingId: held.id, amount: 1_000n, idempotencyKey: key() }),
    ]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    await expectLedgerBalanced(em);
  });
});
