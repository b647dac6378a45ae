/**
 * postPendingWithFee (the paid path's capture) checks its inputs and replays as strictly as the
 * other money calls: a replay is the same post with the same fee, and a negative fee is refused.
 */
import { beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ensureWalletAccount, getAccountBalance, pickSystemAccount, postPending, postPendingWithFee, reserve, transfer } from '../../shared/ledger/index.js';
import { errorOf, expectLedgerBalanced, ledgerKey, useLedgerDatabase } from '../support/ledger.js';

const database = useLedgerDatabase();
let em: EntityManager;
beforeAll(() => {
  em = database().em();
});

async function heldCall(amount: bigint) {
  const wallet = await ensureWalletAccount(em, randomUUID());
  await transfer(em, { idempotencyKey: ledgerKey(), debit: await pickSystemAccount(em, 'promotions'), credit: wallet, amount: 10_000n, kind: 'bonus' });
  const payable = await pickSystemAccount(em, 'publisher_payable', { publisherId: randomUUID(), shardKey: ledgerKey() });
  const revenue = await pickSystemAccount(em, 'platform_revenue', { shardKey: ledgerKey() });
  const hold = await reserve(em, { idempotencyKey: ledgerKey(), debit: wallet, credit: payable, amount, kind: 'charge' });
  return { wallet, payable, revenue, hold };
}

describe('postPendingWithFee', () => {
  it('the same key with another fee is an idempotency conflict, not a replay', async () => {
    const { payable, revenue, hold } = await heldCall(1_000n);
    const first = { pendingId: hold.id, idempotencyKey: ledgerKey(), feeIdempotencyKey: ledgerKey(), amount: 1_000n, fee: 100n, feeAccount: revenue };
    await postPendingWithFee(em, first);
    expect(await errorOf(postPendingWithFee(em, { ...first, fee: 300n }))).toEqual({ status: 409, code: 'idempotency_conflict' });
    expect((await getAccountBalance(em, payable)).posted).toBe(900n);
    await expectLedgerBalanced(database().em());
  });

  it('a post made without a fee, replayed with one, is an idempotency conflict (the fee never moved)', async () => {
    const { revenue, hold } = await heldCall(1_000n);
    const key = ledgerKey();
    await postPending(em, { pendingId: hold.id, idempotencyKey: key, amount: 1_000n });
    // The revenue shard is one of 16, which another test of this file may have paid a fee into.
    const revenueBefore = (await getAccountBalance(em, revenue)).posted;
    const withFee = { pendingId: hold.id, idempotencyKey: key, feeIdempotencyKey: ledgerKey(), amount: 1_000n, fee: 100n, feeAccount: revenue };
    expect(await errorOf(postPendingWithFee(em, withFee))).toEqual({ status: 409, code: 'idempotency_conflict' });
    expect((await getAccountBalance(em, revenue)).posted).toBe(revenueBefore);
  });

  it('a post made with a fee, replayed under the same key with fee 0, is an idempotency conflict too', async () => {
    const { revenue, hold } = await heldCall(1_000n);
    const first = { pendingId: hold.id, idempotencyKey: ledgerKey(), feeIdempotencyKey: ledgerKey(), amount: 1_000n, fee: 100n, feeAccount: revenue };
    await postPendingWithFee(em, first);
    expect(await errorOf(postPendingWithFee(em, { ...first, fee: 0n }))).toEqual({ status: 409, code: 'idempotency_conflict' });
    const free = await heldCall(1_000n);
    const withoutFee = { pendingId: free.hold.id, idempotencyKey: ledgerKey(), feeIdempotencyKey: ledgerKey(), amount: 1_000n, fee: 0n, feeAccount: free.revenue };
    const posted = await postPendingWithFee(em, withoutFee);
    expect((await postPendingWithFee(em, withoutFee)).id).toBe(posted.id);
  });

  it('a negative fee is refused (400 invalid_amount) and the hold stays pending', async () => {
    const { wallet, revenue, hold } = await heldCall(1_000n);
    const settle = { pendingId: hold.id, idempotencyKey: ledgerKey(), feeIdempotencyKey: ledgerKey(), amount: 1_000n, fee: -100n, feeAccount: revenue };
    expect(await errorOf(postPendingWithFee(em, settle))).toEqual({ status: 400, code: 'invalid_amount' });
    expect(await getAccountBalance(em, wallet)).toMatchObject({ posted: 10_000n, held: 1_000n });
  });
});
