/**
 * `checkLedger` (npm run ledger:check) also checks how each hold was settled: a hold posted twice,
 * posted and voided, posted for more than it held, posted between other accounts than it held, or
 * closed with no settlement must be reported even when the account totals were moved to match.
 * Each case below is what a defect in a money statement would leave behind (written with plain SQL).
 *
 * Each test has a database of its own, opened by hand and not checked afterwards (it is corrupted
 * on purpose), so one case's damage never makes another's report.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { checkLedger, type LedgerCheck, ensureWalletAccount, pickSystemAccount, postPending, reserve, transfer } from '../../shared/ledger/index.js';
import { ledgerKey, openLedgerDatabase } from '../support/ledger.js';

let db: Awaited<ReturnType<typeof openLedgerDatabase>>;
let em: EntityManager;
beforeEach(async () => {
  db = await openLedgerDatabase();
  em = db.em();
  expect((await checkLedger(em)).ok).toBe(true);
});
afterEach(async () => {
  await db.close();
});

/** A wallet holding `micros`, a payable shard, and a hold of `held` from the wallet to it. */
async function walletWithHold(micros: bigint, held: bigint) {
  const wallet = await ensureWalletAccount(em, randomUUID());
  await transfer(em, { idempotencyKey: ledgerKey(), debit: await pickSystemAccount(em, 'promotions'), credit: wallet, amount: micros, kind: 'bonus' });
  const payable = await pickSystemAccount(em, 'publisher_payable', { publisherId: randomUUID(), shardKey: ledgerKey() });
  const hold = await reserve(em, { idempotencyKey: ledgerKey(), debit: wallet, credit: payable, amount: held, kind: 'charge' });
  return { wallet, payable, hold };
}

/** Records a settlement row for `pendingId` as a faulty statement would, moving the account totals to match it. */
async function recordSettlement(pendingId: string, type: 'post' | 'void', debit: string, credit: string, amount: bigint) {
  await em.execute(
    `insert into ledger_transfer (id, idempotency_key, type, state, debit_account_id, credit_account_id, amount, pending_id, kind)
     values (?, ?, ?, ?, ?, ?, ?, ?, 'charge')`,
    [randomUUID(), ledgerKey(), type, type === 'post' ? 'posted' : 'voided', debit, credit, amount.toString(), pendingId],
  );
  if (type === 'post') {
    await em.execute('update ledger_account set debits_posted = debits_posted + ? where id = ?', [amount.toString(), debit]);
    await em.execute('update ledger_account set credits_posted = credits_posted + ? where id = ?', [amount.toString(), credit]);
  }
}

/** Broken, and named: the hold (or, for a stray settlement, at least one row) among the bad settlements. */
function expectReported(check: LedgerCheck, holdId?: string) {
  expect(check.ok).toBe(false);
  expect(check.badSettlements.length).toBeGreaterThan(0);
  if (holdId) expect(check.badSettlements).toContain(holdId);
}

describe('the ledger check sees a hold settled wrongly', () => {
  it('a hold posted twice (a second capture of the same call) is reported', async () => {
    const { wallet, payable, hold } = await walletWithHold(1_000n, 500n);
    await postPending(em, { pendingId: hold.id, amount: 500n, idempotencyKey: ledgerKey() });
    await recordSettlement(hold.id, 'post', wallet, payable, 500n);
    expectReported(await checkLedger(em), hold.id);
  });

  it('a hold posted and then released (a release after the capture) is reported', async () => {
    const { wallet, payable, hold } = await walletWithHold(1_000n, 500n);
    await postPending(em, { pendingId: hold.id, amount: 500n, idempotencyKey: ledgerKey() });
    await recordSettlement(hold.id, 'void', wallet, payable, 500n);
    expectReported(await checkLedger(em), hold.id);
  });

  it('a post larger than its hold is reported', async () => {
    const { wallet, payable, hold } = await walletWithHold(1_000n, 100n);
    // Closed as a post would close it (the hold's pending amounts released) ...
    await em.execute(`update ledger_transfer set state = 'posted' where id = ?`, [hold.id]);
    await em.execute('update ledger_account set debits_pending = debits_pending - 100 where id = ?', [wallet]);
    await em.execute('update ledger_account set credits_pending = credits_pending - 100 where id = ?', [payable]);
    // ... but posting 700 of a 100 hold.
    await recordSettlement(hold.id, 'post', wallet, payable, 700n);
    expectReported(await checkLedger(em), hold.id);
  });

  it('a hold closed with no post or void recorded is reported', async () => {
    const { wallet, payable, hold } = await walletWithHold(1_000n, 300n);
    await em.execute(`update ledger_transfer set state = 'posted' where id = ?`, [hold.id]);
    await em.execute('update ledger_account set debits_pending = debits_pending - 300 where id = ?', [wallet]);
    await em.execute('update ledger_account set credits_pending = credits_pending - 300 where id = ?', [payable]);
    expectReported(await checkLedger(em), hold.id);
  });

  it('a post between other accounts than its hold is reported', async () => {
    const { wallet, payable, hold } = await walletWithHold(1_000n, 200n);
    const otherWallet = await ensureWalletAccount(em, randomUUID());
    await transfer(em, { idempotencyKey: ledgerKey(), debit: await pickSystemAccount(em, 'promotions'), credit: otherWallet, amount: 1_000n, kind: 'bonus' });
    await em.execute(`update ledger_transfer set state = 'posted' where id = ?`, [hold.id]);
    await em.execute('update ledger_account set debits_pending = debits_pending - 200 where id = ?', [wallet]);
    await em.execute('update ledger_account set credits_pending = credits_pending - 200 where id = ?', [payable]);
    // The hold was on `wallet`; the post debits another user's wallet.
    await recordSettlement(hold.id, 'post', otherWallet, payable, 200n);
    expectReported(await checkLedger(em));
  });
});
