import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode } from '@mikro-orm/core';
import { isUuid } from '../../../shared/ids.js';
import { notFound } from '../../../shared/errors.js';
import { formatMoney } from '../../../shared/money.js';
import { Charge } from '../entities/charge.js';
import type { PublisherChargeInfo } from '../types/results.js';

export const chargeNotFound = () => notFound('Charge');

export const chargeInfoOf = (charge: Charge): PublisherChargeInfo => ({
  id: charge.id,
  publisherId: charge.publisherId,
  payerId: charge.payerUserId,
  amount: formatMoney(BigInt(charge.amountMicros)),
  fee: formatMoney(BigInt(charge.feeMicros)),
  refundedAmount: formatMoney(BigInt(charge.refundedMicros)),
  slashedAmount: formatMoney(BigInt(charge.slashedMicros)),
  status: charge.status,
  source: charge.source,
  description: charge.description,
  metadata: charge.metadata,
  createdAt: charge.createdAt,
});

/** One of the publisher's charges (another publisher's is 404, as an unknown one); `forUpdate` locks it. */
export async function findCharge(em: EntityManager, publisherId: string, chargeId: string, forUpdate = false): Promise<Charge> {
  const charge = isUuid(chargeId)
    ? await em.findOne(Charge, { id: chargeId, publisherId }, forUpdate ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {})
    : null;
  if (!charge) throw chargeNotFound();
  return charge;
}
