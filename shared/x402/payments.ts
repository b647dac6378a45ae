import type { EntityManager } from '@mikro-orm/postgresql';
import type { VerifiedPayment } from './verify.js';
import type { X402Network } from './networks.js';

/**
 * Records a verified authorization before it is settled: (network, payer, nonce) is the primary
 * key, so a replayed authorization is refused even while the first is still settling. False when
 * it was seen before.
 */
export async function recordPayment(
  em: EntityManager,
  network: X402Network,
  payment: VerifiedPayment,
  details: { payTo: string; resource: string },
): Promise<boolean> {
  const rows = await em.execute(
    `insert into x402_payment (network, payer, nonce, amount, pay_to, resource, status, created_at)
     values (?, ?, ?, ?::bigint, ?, ?, 'verified', now()) on conflict do nothing returning nonce`,
    [network.caip2, payment.payer.toLowerCase(), payment.nonce, payment.amount.toString(), details.payTo.toLowerCase(), details.resource],
  );
  return rows.length === 1;
}

/**
 * `settled_unbooked` (settled on-chain, not booked) and `settle_unknown` (it may have gone
 * on-chain) keep the transfers they still need: their idempotency keys make booking them later
 * exactly-once, even if a booking did commit unseen.
 */
export type PaymentStatus = 'settled' | 'failed' | 'settled_unbooked' | 'settle_unknown';

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

export async function markPayment(
  em: EntityManager,
  key: PaymentKey,
  status: PaymentStatus,
  transaction: string | null,
  unbookedTransfers: unknown = null,
): Promise<void> {
  await em.execute(
    `update x402_payment set status = ?, transaction = ?, settled_at = now(), unbooked_transfers = ?::jsonb where network = ? and payer = ? and nonce = ?`,
    [status, transaction, JSON.stringify(unbookedTransfers), key.network, key.payer.toLowerCase(), key.nonce],
  );
}
