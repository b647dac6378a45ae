import { beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  ensurePrepaidAccount,
  ensureWalletAccount,
  getAccountBalance,
  pickSystemAccount,
  postPendingWithFee,
  prepaidAccountId,
  reserveFromFirst,
  reserveSplit,
  transfer,
  transferAll,
} from '../../shared/ledger/index.js';
import { errorOf, expectLedgerBalanced, ledgerKey, useLedgerDatabase } from '../support/ledger.js';

const database = useLedgerDatabase();
let em: EntityManager;
beforeAll(() => {
  em = database().em();
});
const key = ledgerKey;

async function credit(account: string, micros: bigint) {
  await transfer(em, { idempotencyKey: key(), debit: await pickSystemAccount(em, 'promotions'), credit: account, amount: micros, kind: 'bonus' });
}

async function accounts(prepaidMicros: bigint | null, walletMicros: bigint) {
  const userId = randomUUID();
  const publisherId = randomUUID();
  const wallet = await ensureWalletAccount(em, userId);
  if (walletMicros > 0n) await credit(wallet, walletMicros);
  const prepaid = prepaidMicros === null ? prepaidAccountId(userId, publisherId) : await ensurePrepaidAccount(em, userId, publisherId);
  if (prepaidMicros) await credit(prepaid, prepaidMicros);
  const payable = await pickSystemAccount(em, 'publisher_payable', { publisherId, shardKey: 'test' });
  return { wallet, prepaid, payable };
}

const hold = (debits: [string, string], payable: string, amount: bigint, idempotencyKey = key()) =>
  reserveFromFirst(em, { idempotencyKey, debits, credit: payable, amount, kind: 'charge' });

describe('reserve from the first account that covers', () => {
  it('takes the preferred account when it covers the amount, the fallback when the preferred has nothing, else 402', async () => {
    const { wallet, prepaid, payable } = await accounts(120n, 1000n);
    expect((await hold([prepaid, wallet], payable, 60n)).debitAccountId).toBe(prepaid);
    expect((await hold([prepaid, wallet], payable, 60n)).debitAccountId).toBe(prepaid);
    expect((await hold([prepaid, wallet], payable, 60n)).debitAccountId).toBe(wallet);
    expect(await errorOf(hold([prepaid, wallet], payable, 5000n))).toEqual({ status: 402, code: 'insufficient_balance' });
  });

  it('never passes over a preferred account holding part of the amount (402, for reserveSplit), alone or batched', async () => {
    const { wallet, prepaid, payable } = await accounts(40n, 1000n);
    expect(await errorOf(hold([prepaid, wallet], payable, 60n))).toEqual({ status: 402, code: 'insufficient_balance' });
    const racing = await Promise.all(Array.from({ length: 5 }, () => hold([prepaid, wallet], payable, 60n).then(() => 'held', (error) => error.code)));
    expect(racing).toEqual(Array(5).fill('insufficient_balance'));
    expect((await getAccountBalance(em, wallet)).available).toBe(1000n);
  });

  it('reserveSplit holds all the first has and the rest from the second, both or neither', async () => {
    const { wallet, prepaid, payable } = await accounts(40n, 100n);
    const input = (amount: bigint) => ({ idempotencyKey: key(), debits: [prepaid, wallet] as [string, string], credit: payable, amount, kind: 'charge' });
    const split = await reserveSplit(em, input(60n));
    expect(split?.map((part) => [part.debitAccountId, part.amount])).toEqual([[prepaid, 40n], [wallet, 20n]]);
    // The first has nothing left: all from the second. Both together short: nothing held.
    expect((await reserveSplit(em, input(30n)))?.map((part) => [part.debitAccountId, part.amount])).toEqual([[wallet, 30n]]);
    expect(await reserveSplit(em, input(51n))).toBeNull();
    expect([(await getAccountBalance(em, prepaid)).available, (await getAccountBalance(em, wallet)).available]).toEqual([0n, 50n]);
  });

  it('reserveSplit under a race: 12 holds of 10 on 55 prepaid and 50 wallet units, exactly 10 succeed and both end at 0 or the remainder', async () => {
    const { wallet, prepaid, payable } = await accounts(55n, 50n);
    const results = await Promise.all(
      Array.from({ length: 12 }, () =>
        reserveSplit(database().em(), { idempotencyKey: key(), debits: [prepaid, wallet], credit: payable, amount: 10n, kind: 'charge' }),
      ),
    );
    expect(results.filter((result) => result !== null)).toHaveLength(10);
    expect((await getAccountBalance(em, prepaid)).available + (await getAccountBalance(em, wallet)).available).toBe(5n);
    expect((await getAccountBalance(em, prepaid)).available).toBe(0n);
  });

  it('reserveSplit repeated with its key answers the parts the first made and holds nothing more; another amount is a conflict', async () => {
    const { wallet, prepaid, payable } = await accounts(40n, 100n);
    const idempotencyKey = key();
    const split = (amount: bigint) => reserveSplit(em, { idempotencyKey, debits: [prepaid, wallet], credit: payable, amount, kind: 'charge' });
    const first = await split(60n);
    // The balances changed since: a fresh split would now take all 60 from the wallet.
    const again = await split(60n);
    expect(again?.map((part) => [part.id, part.debitAccountId, part.amount, part.replayed])).toEqual(first!.map((part) => [part.id, part.debitAccountId, part.amount, true]));
    expect([(await getAccountBalance(em, prepaid)).available, (await getAccountBalance(em, wallet)).available]).toEqual([0n, 80n]);
    expect(await errorOf(split(70n))).toEqual({ status: 409, code: 'idempotency_conflict' });
  });

  it('reserveSplit refuses the same account twice and holds nothing when the second account does not exist', async () => {
    const { wallet, prepaid, payable } = await accounts(40n, 100n);
    const input = (debits: [string, string], credit = payable) => ({ idempotencyKey: key(), debits, credit, amount: 60n, kind: 'charge' });
    expect(await errorOf(reserveSplit(em, input([prepaid, prepaid])))).toEqual({ status: 400, code: 'same_account' });
    expect(await errorOf(reserveSplit(em, input([prepaid, payable])))).toEqual({ status: 400, code: 'same_account' });
    expect(await reserveSplit(em, input([prepaid, randomUUID()]))).toBeNull();
    expect((await getAccountBalance(em, prepaid)).available).toBe(40n);
  });

  it('reserveSplit racing batched holds on the same accounts: 5 holds of 10 on 25 prepaid and 30 wallet units, neither overdrawn', async () => {
    const { wallet, prepaid, payable } = await accounts(25n, 30n);
    const racing = await Promise.all(
      Array.from({ length: 16 }, (_, index) => {
        const input = { idempotencyKey: key(), debits: [prepaid, wallet] as [string, string], credit: payable, amount: 10n, kind: 'charge' };
        const held = index % 2 === 0 ? reserveSplit(database().em(), input) : reserveFromFirst(database().em(), input).then((part) => [part]);
        return held.then((parts) => parts?.reduce((sum, part) => sum + part.amount, 0n) ?? 0n, () => 0n);
      }),
    );
    const prepaidLeft = (await getAccountBalance(em, prepaid)).available;
    const walletLeft = (await getAccountBalance(em, wallet)).available;
    expect(prepaidLeft >= 0n && walletLeft >= 0n).toBe(true);
    expect(racing.reduce((sum, held) => sum + held, 0n)).toBe(55n - prepaidLeft - walletLeft);
    // A split fails only once less than 10 is left in all, and 8 splits cannot all succeed: 5 holds.
    expect([racing.filter((held) => held > 0n).length, prepaidLeft + walletLeft]).toEqual([5, 5n]);
    await expectLedgerBalanced(em);
  });

  it('skips a preferred account that does not exist yet', async () => {
    const { wallet, prepaid, payable } = await accounts(null, 100n);
    expect((await hold([prepaid, wallet], payable, 10n)).debitAccountId).toBe(wallet);
  });

  it('a replay returns the first hold and holds nothing more', async () => {
    const { wallet, prepaid, payable } = await accounts(50n, 0n);
    const idempotencyKey = key();
    const first = await hold([prepaid, wallet], payable, 30n, idempotencyKey);
    const again = await hold([prepaid, wallet], payable, 30n, idempotencyKey);
    expect(again).toMatchObject({ id: first.id, replayed: true });
    expect((await getAccountBalance(em, prepaid)).available).toBe(20n);
  });

  it('20 racing holds on 5 prepaid and 5 wallet units: exactly 10 succeed, both accounts end at 0', async () => {
    const { wallet, prepaid, payable } = await accounts(5n, 5n);
    const results = await Promise.all(
      Array.from({ length: 20 }, () => reserveFromFirst(database().em(), { idempotencyKey: key(), debits: [prepaid, wallet], credit: payable, amount: 1n, kind: 'charge' }).then(() => 'held', (error) => error.code)),
    );
    expect(results.filter((result) => result === 'held')).toHaveLength(10);
    expect(results.filter((result) => result === 'insufficient_balance')).toHaveLength(10);
    expect((await getAccountBalance(em, prepaid)).available).toBe(0n);
    expect((await getAccountBalance(em, wallet)).available).toBe(0n);
  });
});

describe('post with a linked fee', () => {
  it('posts the amount to the payable and moves the fee on to revenue, in one step', async () => {
    const { wallet, prepaid, payable } = await accounts(null, 1000n);
    const reserved = await hold([prepaid, wallet], payable, 110n);
    const revenue = await pickSystemAccount(em, 'platform_revenue', { shardKey: 'test' });
    const revenueBefore = (await getAccountBalance(em, revenue)).posted;
    const settle = { pendingId: reserved.id, idempotencyKey: key(), amount: 110n, fee: 10n, feeAccount: revenue, feeIdempotencyKey: key() };
    const posted = await postPendingWithFee(em, settle);
    expect(posted).toMatchObject({ type: 'post', amount: 110n, debitBalanceAfter: 890n });
    expect((await getAccountBalance(em, payable)).posted).toBe(100n);
    expect((await getAccountBalance(em, revenue)).posted - revenueBefore).toBe(10n);
    const replay = await postPendingWithFee(em, settle);
    expect(replay).toMatchObject({ id: posted.id, replayed: true });
    expect((await getAccountBalance(em, payable)).posted).toBe(100n);
    await expectLedgerBalanced(database().em());
  });

  it('a hold or fee naming an account that does not exist fails whole and moves nothing', async () => {
    const { wallet, prepaid, payable } = await accounts(null, 1000n);
    await expect(hold([prepaid, wallet], randomUUID(), 10n)).rejects.toThrow('Ledger account missing');
    expect((await getAccountBalance(em, wallet)).available).toBe(1000n);
    const reserved = await hold([prepaid, wallet], payable, 50n);
    const settle = { pendingId: reserved.id, idempotencyKey: key(), amount: 50n, fee: 5n, feeAccount: randomUUID(), feeIdempotencyKey: key() };
    await expect(postPendingWithFee(em, settle)).rejects.toThrow('Ledger account missing');
    expect(await getAccountBalance(em, wallet)).toMatchObject({ posted: 1000n, available: 950n });
    expect((await getAccountBalance(em, payable)).posted).toBe(0n);
    await expectLedgerBalanced(database().em());
  });

  it('refuses to post more than was held, and a fee larger than the amount', async () => {
    const { wallet, prepaid, payable } = await accounts(null, 1000n);
    const reserved = await hold([prepaid, wallet], payable, 50n);
    const revenue = await pickSystemAccount(em, 'platform_revenue', { shardKey: 'test' });
    const base = { pendingId: reserved.id, idempotencyKey: key(), feeAccount: revenue, feeIdempotencyKey: key() };
    expect(await errorOf(postPendingWithFee(em, { ...base, amount: 60n, fee: 1n }))).toEqual({ status: 400, code: 'amount_exceeds_reserve' });
    expect(await errorOf(postPendingWithFee(em, { ...base, amount: 10n, fee: 11n }))).toEqual({ status: 400, code: 'invalid_amount' });
  });
});

describe('transferAll', () => {
  it('moves all or nothing, and a repeat replays without moving anything again', async () => {
    const { wallet, payable } = await accounts(null, 0n);
    await credit(payable, 100n);
    const revenue = await pickSystemAccount(em, 'platform_revenue', { shardKey: 'test' });
    const first = { idempotencyKey: key(), debit: payable, credit: wallet, amount: 60n, kind: 'refund' };
    const tooMuch = { idempotencyKey: key(), debit: wallet, credit: revenue, amount: 61n, kind: 'fee' };
    expect(await errorOf(transferAll(em, [first, tooMuch]))).toEqual({ status: 402, code: 'insufficient_balance' });
    expect((await getAccountBalance(em, wallet)).posted).toBe(0n);
    const fits = { ...tooMuch, amount: 10n };
    const done = await transferAll(em, [first, fits]);
    const again = await transferAll(em, [first, fits]);
    expect(again.map((t) => t.id)).toEqual(done.map((t) => t.id));
    expect((await getAccountBalance(em, wallet)).posted).toBe(50n);
    await expectLedgerBalanced(database().em());
  });

  it('runs beside batched holds and posts on the same accounts without deadlocking', async () => {
    const revenue = await pickSystemAccount(em, 'platform_revenue', { shardKey: 'test' });
    // The wallet's id sorts first: the holds and posts lock it before the payable and revenue,
    // which the refunds' first transfer holds, the order in which a deadlock can form.
    let { wallet, payable } = await accounts(null, 0n);
    while (!(wallet < payable && wallet < revenue)) ({ wallet, payable } = await accounts(null, 0n));
    await credit(wallet, 10_000n);
    await credit(payable, 10_000n);
    const paidCall = async () => {
      const reserved = await hold([prepaidAccountId(randomUUID(), randomUUID()), wallet], payable, 10n);
      await postPendingWithFee(em, { pendingId: reserved.id, idempotencyKey: key(), amount: 10n, fee: 1n, feeAccount: revenue, feeIdempotencyKey: key() });
    };
    const refund = () =>
      transferAll(em, [
        { idempotencyKey: key(), debit: revenue, credit: payable, amount: 1n, kind: 'refund' },
        { idempotencyKey: key(), debit: payable, credit: wallet, amount: 10n, kind: 'refund' },
      ]);
    const work = Array.from({ length: 60 }, (_, index) => (index % 3 === 2 ? refund() : paidCall()));
    const results = await Promise.allSettled(work);
    expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
    expect((await getAccountBalance(em, wallet)).posted).toBe(10_000n - 400n + 200n);
    await expectLedgerBalanced(database().em());
  });
});
