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

export async function markPayment(
  em: EntityManager,
  network: X402Network,
  payment: VerifiedPayment,
  status: 'settled' | 'failed',
  transaction: string | null,
): Promise<void> {
  await em.execute(
    `update x402_payment set status = ?, transaction = ?, settled_at = now() where network = ? and payer = ? and nonce = ?`,
    [status, transaction, network.caip2, payment.payer.toLowerCase(), payment.nonce],
  );
}

/**
 * Settled on-chain but not booked (`settled_unbooked`), or of unknown outcome (`settle_unknown`):
 * kept with the transfers it still needs, whose idempotency keys make booking them later
 * exactly-once, even if a booking did commit unseen.
 */
export async function markPaymentUnbooked(
  em: EntityManager,
  network: X402Network,
  payment: VerifiedPayment,
  status: 'settled_unbooked' | 'settle_unknown',
  transaction: string | null,
  unbookedTransfers: unknown,
): Promise<void> {
  await em.execute(
    `update x402_payment set status = ?, transaction = ?, settled_at = now(), unbooked_transfers = ?::jsonb where network = ? and payer = ? and nonce = ?`,
    [status, transaction, JSON.stringify(unbookedTransfers ?? null), network.caip2, payment.payer.toLowerCase(), payment.nonce],
  );
}
