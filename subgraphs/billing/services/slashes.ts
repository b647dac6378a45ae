import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../../shared/context.js';
import { retriedTransaction } from '../../../shared/db/retried-transaction.js';
import { AppError, badRequest } from '../../../shared/errors.js';
import { findTransfer, pickSystemAccount, transfer, withLedgerLocks } from '../../../shared/ledger/index.js';
import { amountOf, textOf } from './charge-input.js';
import { findCharge } from './charge-views.js';
import { readEarnings } from './earnings.js';
import { idempotent } from './idempotency.js';
import { payerAccountOf } from './payer-account.js';
import { lockPublisherEarnings, managedPublisher, OWNERS_OR_OPERATOR } from './publisher-access.js';
import { remainingOf } from './refunds.js';

export const insufficientEarnings = () => new AppError(402, 'insufficient_earnings', 'The publisher’s available earnings do not cover this amount');

/**
 * A penalty on a charge: taken from the publisher's available earnings and returned to that
 * charge's payer. Under the publisher's earnings lock (payouts take it too), so a slash and a payout
 * never both spend the same earnings; never more than what remains of the charge.
 */
async function slash(context: RequestContext, publisherId: string, chargeId: string, slashId: string, amount: bigint, reason: string): Promise<boolean> {
  return retriedTransaction(context.em, async (tx) => {
    await lockPublisherEarnings(tx, publisherId);
    const charge = await findCharge(tx as EntityManager, publisherId, chargeId, true);
    const key = `publisher-charge:${charge.id}:slash:${slashId}`;
    // A retry of an attempt that died after committing: that slash is done.
    if (await findTransfer(tx, key)) return true;
    if (amount > remainingOf(charge)) throw badRequest('slash_exceeds_charge', 'A slash cannot exceed what remains of the charge');
    if ((await readEarnings(tx, publisherId, context.services.config.payouts.holdDays)).available < amount) throw insufficientEarnings();
    const payer = payerAccountOf(charge);
    const payable = await pickSystemAccount(tx, 'publisher_payable', { publisherId, shardKey: key });
    await withLedgerLocks(tx, { accounts: [payer, payable] }, (locked) =>
      transfer(locked, { idempotencyKey: key, debit: payable, credit: payer, amount, kind: 'slash', reference: charge.id, metadata: { charge_id: charge.id, reason } }),
    );
    charge.slashedMicros = BigInt(charge.slashedMicros) + amount;
    charge.slashCount += 1;
    await tx.flush();
    return true;
  });
}

export async function slashPublisherCharge(
  context: RequestContext,
  slug: string,
  chargeId: string,
  input: { amount?: string | null; reason?: string | null },
  idempotencyKey?: string | null,
): Promise<boolean> {
  const publisher = await managedPublisher(context, slug, OWNERS_OR_OPERATOR);
  const amount = amountOf(input.amount);
  const reason = textOf(input.reason, 'reason', true);
  return idempotent(context, `publisher-slash:${chargeId}`, idempotencyKey, { amount, reason }, (slashId) =>
    slash(context, publisher.publisherId, chargeId, slashId, amount, reason),
  );
}
