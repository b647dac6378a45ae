import { beforeAll, describe, expect, it, jest } from '@jest/globals';
import { randomBytes, randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ensurePrepaidAccount, ensureWalletAccount, getAccountBalance, pickSystemAccount, reserveSplit, transfer, voidPending } from '../../shared/ledger/index.js';
import type { Logger } from '../../shared/logger.js';
import { captureCallCharge, holdCallCharge, releaseCallCharge, type Hold } from '../../subgraphs/marketplace/proxy/charging.js';
import type { CallPrice } from '../../subgraphs/marketplace/services/pricing.js';
import { withInsertsRefused } from '../support/database-faults.js';
import { errorOf, ledgerKey, useLedgerDatabase } from '../support/ledger.js';

const database = useLedgerDatabase();
let em: EntityManager;
beforeAll(() => {
  em = database().em();
});

async function credit(account: string, micros: bigint) {
  await transfer(em, { idempotencyKey: ledgerKey(), debit: await pickSystemAccount(em, 'promotions'), credit: account, amount: micros, kind: 'bonus' });
}

/** A call's hold of `amount` on `prepaid` credits and the rest from a wallet of `wallet`. */
async function splitHold(prepaid: bigint, wallet: bigint, amount: bigint): Promise<Hold> {
  const userId = randomUUID();
  const publisherId = randomUUID();
  await credit(await ensureWalletAccount(em, userId), wallet);
  await credit(await ensurePrepaidAccount(em, userId, publisherId), prepaid);
  const hold = await holdCallCharge(em, { callId: randomUUID(), userId, publisherId, amount, metadata: {} });
  expect(hold.parts.map((part) => part.amount)).toEqual([prepaid, amount - prepaid]);
  return hold;
}

const priceOf = (total: bigint): CallPrice => ({ base: total, markup: 0n, fee: 0n, total, minimumApplied: false });
const available = (hold: Hold) => Promise.all(hold.parts.map(async (part) => (await getAccountBalance(em, part.debitAccountId)).available));
const fakeLog = () => ({ error: jest.fn() });
const asLogger = (log: ReturnType<typeof fakeLog>) => log as unknown as Logger;

/** While `work` runs, the first row inserted into ledger_transfer matching `when` fails as a deadlock victim's statement would. */
async function withOneDeadlock<T>(when: string, work: () => Promise<T>): Promise<T> {
  const name = `deadlock_${randomBytes(4).toString('hex')}`;
  await em.execute(`create sequence ${name}_count`);
  await em.execute(`create function ${name}() returns trigger language plpgsql as $$
    begin
      if (${when}) and nextval('${name}_count') = 1 then raise exception 'deadlock made by the test' using errcode = '40P01'; end if;
      return new;
    end $$`);
  await em.execute(`create trigger ${name} before insert on ledger_transfer for each row execute function ${name}()`);
  try {
    return await work();
  } finally {
    await em.execute(`drop trigger ${name} on ledger_transfer; drop function ${name}(); drop sequence ${name}_count`);
  }
}

describe('a charge on a split hold (prepaid credits, then the wallet)', () => {
  it('locks the reserves before the accounts, as a release does: behind a release in progress it waits, and never deadlocks', async () => {
    const hold = await splitHold(40n, 60n, 100n);
    const walletPart = hold.parts[1]!;
    let capture: Promise<unknown> | undefined;
    await database().em().transactional(async (tx) => {
      // A release that fails to get its accounts at once (a capture holding them) fails here,
      // instead of waiting for the deadlock detector.
      await tx.execute(`set local lock_timeout = '500ms'`);
      // As a release's statement does: its reserve row first...
      await tx.execute('select id from ledger_transfer where id = ? for no key update', [walletPart.pendingId]);
      capture = captureCallCharge(database().em(), hold, priceOf(100n), {}, asLogger(fakeLog())).then(
        () => 'charged',
        (error) => error.code,
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      // ...then its accounts, in the same statement.
      await voidPending(tx as EntityManager, { pendingId: walletPart.pendingId, idempotencyKey: `call:${hold.callId}:release:rest`, metadata: { reason: 'orphaned' } });
    });
    // The release won: the charge finds its wallet part gone, and gives back the prepaid part it held.
    expect(await capture).toBe('pending_transfer_closed');
    expect(await available(hold)).toEqual([40n, 60n]);
  });

  it('runs again after a deadlock, posting both parts once', async () => {
    const hold = await splitHold(40n, 60n, 100n);
    const charge = await withOneDeadlock(`new.idempotency_key like '%:capture:rest'`, () => captureCallCharge(em, hold, priceOf(100n), {}, asLogger(fakeLog())));
    expect([charge.amount, charge.paid]).toEqual([100n, [40n, 60n]]);
    expect(await available(hold)).toEqual([0n, 0n]);
    expect((await getAccountBalance(em, hold.parts[1]!.debitAccountId)).held).toBe(0n);
  });

  it('that fails gives the whole hold back; a part it cannot give back is logged with the call and the part', async () => {
    const hold = await splitHold(40n, 60n, 100n);
    const log = fakeLog();
    const refusePosts = { table: 'ledger_transfer', when: `new.type = 'post'` };
    expect(await errorOf(withInsertsRefused(em, refusePosts, () => captureCallCharge(em, hold, priceOf(100n), {}, asLogger(log))))).not.toBeNull();
    expect(await available(hold)).toEqual([40n, 60n]);
    expect(log.error).not.toHaveBeenCalled();

    const stuck = await splitHold(40n, 60n, 100n);
    const refusePostsAndVoids = { table: 'ledger_transfer', when: `new.type in ('post', 'void')` };
    expect(await errorOf(withInsertsRefused(em, refusePostsAndVoids, () => captureCallCharge(em, stuck, priceOf(100n), {}, asLogger(log))))).not.toBeNull();
    // The parts are released side by side: in either order.
    expect(log.error).toHaveBeenCalledTimes(2);
    expect(log.error.mock.calls.map(([fields]) => fields)).toEqual(
      expect.arrayContaining(stuck.parts.map((part) => expect.objectContaining({ callId: stuck.callId, pendingId: part.pendingId, reason: 'charge_failed' }))),
    );
    await releaseCallCharge(em, stuck, 'test');
  });

  it('paid by the prepaid part alone releases the wallet part; a release that fails is logged, and the charge stands', async () => {
    const hold = await splitHold(40n, 60n, 100n);
    const log = fakeLog();
    const refuseVoids = { table: 'ledger_transfer', when: `new.type = 'void'` };
    const charge = await withInsertsRefused(em, refuseVoids, () => captureCallCharge(em, hold, priceOf(30n), {}, asLogger(log)));
    expect([charge.amount, charge.paid]).toEqual([30n, [30n, 0n]]);
    expect(log.error.mock.calls.map(([fields]) => fields)).toEqual([
      expect.objectContaining({ callId: hold.callId, pendingId: hold.parts[1]!.pendingId, reason: 'not_needed' }),
    ]);
    await voidPending(em, { pendingId: hold.parts[1]!.pendingId, idempotencyKey: ledgerKey() });
    expect(await available(hold)).toEqual([10n, 60n]);
  });
});

describe('reserveSplit', () => {
  it('runs again after a deadlock, holding both parts once', async () => {
    const userId = randomUUID();
    const wallet = await ensureWalletAccount(em, userId);
    const prepaid = await ensurePrepaidAccount(em, userId, randomUUID());
    await credit(wallet, 100n);
    await credit(prepaid, 40n);
    const payable = await pickSystemAccount(em, 'publisher_payable', { publisherId: randomUUID(), shardKey: 'test' });
    const idempotencyKey = ledgerKey();
    const held = await withOneDeadlock(`new.idempotency_key = '${idempotencyKey}:rest'`, () =>
      reserveSplit(em, { idempotencyKey, debits: [prepaid, wallet], credit: payable, amount: 100n, kind: 'charge' }),
    );
    expect(held?.map((part) => [part.debitAccountId, part.amount])).toEqual([[prepaid, 40n], [wallet, 60n]]);
    expect([(await getAccountBalance(em, prepaid)).available, (await getAccountBalance(em, wallet)).available]).toEqual([0n, 40n]);
    for (const part of held!) await voidPending(em, { pendingId: part.id, idempotencyKey: ledgerKey() });
  });
});
