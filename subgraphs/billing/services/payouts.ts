import type { EntityManager } from '@mikro-orm/postgresql';
import { isAddress } from 'ethers';
import { persisted } from './persisted.js';
import type { RequestContext } from '../../../shared/context.js';
import { retriedTransaction } from '../../../shared/db/retried-transaction.js';
import { badRequest, conflict } from '../../../shared/errors.js';
import { pickSystemAccount, postPending, reserve, voidPending } from '../../../shared/ledger/index.js';
import type { BilledPublisher } from '../../../shared/ports.js';
import { Payout } from '../entities/payout.js';
import type { PublisherPayoutInfo } from '../types/results.js';
import { requireOperator } from './access.js';
import { amountOf } from './charge-input.js';
import { readEarnings } from './earnings.js';
import { idempotent } from './idempotency.js';
import { findPayout, payoutInfoOf } from './payout-views.js';
import { lockPublisherEarnings, managedPublisher, MANAGERS, MANAGERS_OR_OPERATOR } from './publisher-access.js';
import { onChainPayouts, sendPayout } from './send-payout.js';
import { insufficientEarnings } from './slashes.js';

const keyOf = (payoutId: string) => `publisher-payout:${payoutId}`;
const TX_HASH = /^0x[0-9a-fA-F]{64}$/;

/**
 * Takes the amount out of the publisher's available earnings (under its earnings lock, so
 * concurrent payouts never spend the same money) as a ledger hold: payable -> on-chain clearing,
 * posted when the payout is paid, voided (money back to earnings) when it fails.
 */
async function holdPayout(context: RequestContext, publisher: BilledPublisher, id: string, amount: bigint): Promise<Payout> {
  const key = keyOf(id);
  const payable = await pickSystemAccount(context.em, 'publisher_payable', { publisherId: publisher.publisherId, shardKey: key });
  const clearing = await pickSystemAccount(context.em, 'onchain_clearing', { shardKey: key });
  const { config } = context.services;
  return retriedTransaction(context.em, async (tx) => {
    await lockPublisherEarnings(tx, publisher.publisherId);
    if ((await readEarnings(tx, publisher.publisherId, config.payouts.holdDays)).available < amount) throw insufficientEarnings();
    const hold = await reserve(tx, { idempotencyKey: `${key}:hold`, debit: payable, credit: clearing, amount, kind: 'payout', reference: id });
    const payout = persisted(tx, Object.assign(new Payout(), {
      id,
      publisherId: publisher.publisherId,
      amountMicros: amount,
      walletAddress: publisher.walletAddress!,
      networkId: publisher.walletNetworkId,
      asset: config.payouts.asset ?? null,
      holdTransferId: hold.id,
      requestedByUserId: context.identity!.userId,
    }));
    await tx.flush();
    return payout;
  });
}

/** Closes a payout: paid posts its hold, failed voids it (the money is available again). Once only: the row is locked. */
async function settlePayout(em: EntityManager, payoutId: string, outcome: { status: 'paid' | 'failed'; txHash: string | null; reason: string | null }, allowedFrom: string[]) {
  return retriedTransaction(em, async (tx) => {
    const [row] = await tx.execute(`select id, status, hold_transfer_id, amount_micros::text as amount from billing_payout where id = ? for update`, [payoutId]);
    if (!allowedFrom.includes(row.status)) throw conflict('payout_not_open', `The payout is ${row.status}`);
    const key = keyOf(payoutId);
    if (outcome.status === 'paid') await postPending(tx, { pendingId: row.hold_transfer_id, amount: BigInt(row.amount), idempotencyKey: `${key}:paid`, kind: 'payout' });
    else await voidPending(tx, { pendingId: row.hold_transfer_id, idempotencyKey: `${key}:void`, kind: 'payout' });
    await tx.execute(`update billing_payout set status = ?, tx_hash = coalesce(?, tx_hash), failure_reason = ?, updated_at = now() where id = ?`, [
      outcome.status, outcome.txHash, outcome.reason, payoutId,
    ]);
  });
}

/** On chain: pending -> processing (the hash recorded once sent) -> paid or failed by the receipt. */
async function sendOnChain(context: RequestContext, payout: Payout): Promise<void> {
  const em = context.em;
  const claimed = await em.execute(`update billing_payout set status = 'processing', updated_at = now() where id = ? and status = 'pending' returning id`, [payout.id]);
  if (claimed.length === 0) return;
  const result = await sendPayout(context.services.config, payout.walletAddress, BigInt(payout.amountMicros), async (txHash) => {
    await em.execute(`update billing_payout set tx_hash = ?, updated_at = now() where id = ?`, [txHash, payout.id]);
  });
  if (result.outcome === 'unknown') {
    context.log.warn({ payoutId: payout.id, txHash: result.txHash, reason: result.reason }, 'payout sent, receipt not seen: left processing');
    await em.execute(`update billing_payout set failure_reason = ?, updated_at = now() where id = ?`, [`Receipt not seen yet: ${result.reason}`, payout.id]);
    return;
  }
  await settlePayout(em, payout.id, { status: result.outcome, txHash: result.txHash, reason: result.outcome === 'failed' ? result.reason : null }, ['processing']);
}

export async function createPublisherPayout(context: RequestContext, slug: string, input: { amount?: string | null }, idempotencyKey?: string | null): Promise<PublisherPayoutInfo> {
  const publisher = await managedPublisher(context, slug, MANAGERS);
  const amount = amountOf(input.amount);
  if (!publisher.walletAddress || !isAddress(publisher.walletAddress)) {
    throw badRequest('payout_address_missing', 'The publisher has no wallet_address to pay out to');
  }
  return idempotent(context, `publisher-payout:${publisher.publisherId}`, idempotencyKey, { amount }, async (id) => {
    // A retry of an attempt that died after holding the money finds its payout (and does not send it again).
    const done = await context.em.findOne(Payout, { id, publisherId: publisher.publisherId });
    if (done) return payoutInfoOf(done);
    const payout = await holdPayout(context, publisher, id, amount);
    if (onChainPayouts(context.services.config)) await sendOnChain(context, payout);
    context.em.clear();
    return payoutInfoOf(await findPayout(context.em, publisher.publisherId, payout.id));
  });
}

export async function readPublisherPayout(context: RequestContext, slug: string, payoutId: string): Promise<PublisherPayoutInfo> {
  const publisher = await managedPublisher(context, slug, MANAGERS_OR_OPERATOR);
  return payoutInfoOf(await findPayout(context.em, publisher.publisherId, payoutId));
}

/** Operator: a payout sent by hand (or seen mined) is paid, with its transaction hash; one that will not be is failed. */
export async function closePublisherPayout(
  context: RequestContext,
  slug: string,
  payoutId: string,
  outcome: { status: 'paid'; txHash: string } | { status: 'failed'; reason: string },
): Promise<PublisherPayoutInfo> {
  requireOperator(context);
  const publisher = await managedPublisher(context, slug, MANAGERS_OR_OPERATOR);
  const payout = await findPayout(context.em, publisher.publisherId, payoutId);
  if (outcome.status === 'paid' && !TX_HASH.test(outcome.txHash)) throw badRequest('invalid_tx_hash', 'tx_hash must be a 0x-prefixed 32-byte hex hash');
  await settlePayout(
    context.em,
    payout.id,
    outcome.status === 'paid' ? { status: 'paid', txHash: outcome.txHash, reason: null } : { status: 'failed', txHash: null, reason: outcome.reason.slice(0, 300) || 'Failed by the operator' },
    ['pending', 'processing'],
  );
  context.em.clear();
  return payoutInfoOf(await findPayout(context.em, publisher.publisherId, payout.id));
}
