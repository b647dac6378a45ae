import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../../shared/context.js';
import { retriedTransaction } from '../../../shared/db/retried-transaction.js';
import { badRequest } from '../../../shared/errors.js';
import { findTransfer, pickSystemAccount, transfer, withLedgerLocks } from '../../../shared/ledger/index.js';
import type { Charge } from '../entities/charge.js';
import type { PublisherChargeInfo } from '../types/results.js';
import { amountOf, textOf } from './charge-input.js';
import { chargeInfoOf, findCharge } from './charge-views.js';
import { idempotent } from './idempotency.js';
import { payerAccountOf } from './payer-account.js';
import { MANAGERS, managedPublisher } from './publisher-access.js';

/** What can still go back to the payer: the amount less refunds and slashes. */
export const remainingOf = (charge: Charge) => BigInt(charge.amountMicros) - BigInt(charge.refundedMicros) - BigInt(charge.slashedMicros);

/** The fee's share of a refund, in proportion; the refund that empties the charge returns all the fee left. */
function feeShareOf(charge: Charge, amount: bigint): bigint {
  const fee = BigInt(charge.feeMicros);
  const feeLeft = fee - BigInt(charge.refundedFeeMicros);
  if (amount === remainingOf(charge)) return feeLeft;
  const share = (fee * amount) / BigInt(charge.amountMicros);
  return share > feeLeft ? feeLeft : share;
}

/**
 * Refunds part or all of a charge to the account it came from, reversing its transfers: the
 * publisher's payable returns its part, platform revenue the fee's part. The charge row is locked,
 * so concurrent refunds see each other and never return more than the charge (400 refund_exceeds_charge).
 */
async function refund(context: RequestContext, publisherId: string, chargeId: string, refundId: string, requested: bigint | null, reason: string) {
  return retriedTransaction(context.em, async (tx) => {
    const charge = await findCharge(tx as EntityManager, publisherId, chargeId, true);
    const key = `publisher-charge:${charge.id}:refund:${refundId}`;
    // A retry of an attempt that died after committing: that refund is done.
    if ((await findTransfer(tx, key)) || (await findTransfer(tx, `${key}:fee`))) return chargeInfoOf(charge);
    const remaining = remainingOf(charge);
    const amount = requested ?? remaining;
    if (amount <= 0n || amount > remaining) {
      throw badRequest('refund_exceeds_charge', `At most ${remaining} micro-dollars of this charge can still be refunded`);
    }
    const feeBack = feeShareOf(charge, amount);
    const payer = payerAccountOf(charge);
    const payable = await pickSystemAccount(tx, 'publisher_payable', { publisherId, shardKey: key });
    const revenue = await pickSystemAccount(tx, 'platform_revenue', { shardKey: key });
    await withLedgerLocks(tx, { accounts: [payer, payable, revenue] }, async (locked) => {
      const common = { kind: 'publisher_refund', reference: charge.id, metadata: { charge_id: charge.id, reason } };
      if (amount > feeBack) await transfer(locked, { ...common, idempotencyKey: key, debit: payable, credit: payer, amount: amount - feeBack });
      if (feeBack > 0n) await transfer(locked, { ...common, idempotencyKey: `${key}:fee`, debit: revenue, credit: payer, amount: feeBack });
    });
    charge.refundedMicros = BigInt(charge.refundedMicros) + amount;
    charge.refundedFeeMicros = BigInt(charge.refundedFeeMicros) + feeBack;
    charge.refundCount += 1;
    charge.status = charge.refundedMicros === BigInt(charge.amountMicros) ? 'refunded' : 'partially_refunded';
    await tx.flush();
    return chargeInfoOf(charge);
  });
}

export async function refundPublisherCharge(
  context: RequestContext,
  slug: string,
  chargeId: string,
  input: { amount?: string | null; reason?: string | null },
  idempotencyKey?: string | null,
): Promise<PublisherChargeInfo> {
  const publisher = await managedPublisher(context, slug, MANAGERS);
  const amount = input.amount === null || input.amount === undefined ? null : amountOf(input.amount);
  const reason = textOf(input.reason, 'reason', false);
  return idempotent(context, `publisher-refund:${chargeId}`, idempotencyKey, { amount, reason }, (refundId) =>
    refund(context, publisher.publisherId, chargeId, refundId, amount, reason),
  );
}
