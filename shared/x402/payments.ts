import type { EntityManager } from '@mikro-orm/postgresql';
import type { StoredTransfer } from './booking.js';
import type { VerifiedPayment } from './verify.js';
import type { X402Network } from './networks.js';

export interface PaymentDetails {
  payTo: string;
  resource: string;
  /** A call's payment: what its publisher earns by it (counted in the publisher's revenue once booked). */
  publisherShare?: { publisherId: string; amount: bigint };
  /**
   * What the payment books once settled, kept from the start: a process that dies between the
   * settlement and its booking leaves a `verified` payment that can still be booked exactly.
   */
  plan: StoredTransfer[];
}

/**
 * Records a verified authorization before it is settled: (network, payer, nonce) is the primary
 * key, so a replayed authorization is refused even while the first is still settling. False when
 * it was seen before. Its validBefore is kept: until then an unanswered settlement may still execute.
 */
export async function recordPayment(em: EntityManager, network: X402Network, payment: VerifiedPayment, details: PaymentDetails): Promise<boolean> {
  const rows = await em.execute(
    `insert into x402_payment (network, payer, nonce, amount, pay_to, resource, status, created_at, valid_before, publisher_id, publisher_share, unbooked_transfers)
     values (?, ?, ?, ?::bigint, ?, ?, 'verified', now(), ?::timestamptz, ?, ?::bigint, ?::jsonb) on conflict do nothing returning nonce`,
    [
      network.caip2,
      payment.payer.toLowerCase(),
      payment.nonce,
      payment.amount.toString(),
      details.payTo.toLowerCase(),
      details.resource,
      new Date(Number(payment.validBefore) * 1000).toISOString(),
      details.publisherShare?.publisherId ?? null,
      details.publisherShare?.amount.toString() ?? null,
      JSON.stringify(details.plan),
    ],
  );
  return rows.length === 1;
}

/**
 * `settled_unbooked` (settled on-chain, not booked) and `settle_unknown` (it may have gone
 * on-chain) keep the transfers they still need: their idempotency keys make booking them later
 * exactly-once, even if a booking did commit unseen.
 */
export type PaymentStatus = 'verified' | 'settled' | 'failed' | 'settled_unbooked' | 'settle_unknown';

/** Which authorization a row records: (network, payer, nonce), its primary key. */
export interface PaymentKey {
  network: string;
  payer: string;
  nonce: string;
}

export const paymentKey = (network: X402Network, payment: VerifiedPayment): PaymentKey => ({
  network: network.caip2,
  payer: payment.payer.toLowerCase(),
  nonce: payment.nonce,
});

export interface MarkOptions {
  /** The settling transaction, when there is one. */
  transaction?: string | null;
  /** What is left to book: a new plan, null once booked; the stored one is kept when not given. */
  plan?: unknown;
  /** The statuses it may move from (by default `verified`). */
  from?: readonly PaymentStatus[];
}

/**
 * Moves a payment on from one of the statuses `from` (by default `verified`, the live call's own
 * state). A payment that has moved on meanwhile (an operator resolved it while its call was
 * still running) is left as it is: false then.
 */
export async function markPayment(
  em: EntityManager,
  key: PaymentKey,
  status: PaymentStatus,
  { transaction = null, plan, from = ['verified'] }: MarkOptions = {},
): Promise<boolean> {
  // SQL null to clear a plan, never the JSON value null.
  const planSql = plan === undefined ? 'unbooked_transfers' : '?::jsonb';
  const planValue = plan === undefined ? [] : [plan === null ? null : JSON.stringify(plan)];
  const moved = await em.execute(
    `update x402_payment set status = ?, transaction = ?, settled_at = now(), unbooked_transfers = ${planSql}
     where network = ? and payer = ? and nonce = ? and status in (${from.map(() => '?').join(', ')}) returning nonce`,
    [status, transaction, ...planValue, key.network, key.payer.toLowerCase(), key.nonce, ...from],
  );
  return moved.length === 1;
}
