import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode } from '@mikro-orm/core';
import { notFound } from '../../../shared/errors.js';
import { isUuid } from '../../../shared/ids.js';
import { formatMoney } from '../../../shared/money.js';
import { Payout } from '../entities/payout.js';
import type { PublisherPayoutInfo } from '../types/results.js';

export const payoutNotFound = () => notFound('Payout');

export const payoutInfoOf = (payout: Payout): PublisherPayoutInfo => ({
  id: payout.id,
  publisherId: payout.publisherId,
  amount: formatMoney(BigInt(payout.amountMicros)),
  status: payout.status,
  walletAddress: payout.walletAddress,
  networkId: payout.networkId,
  asset: payout.asset,
  txHash: payout.txHash,
  failureReason: payout.failureReason,
  createdAt: payout.createdAt,
  updatedAt: payout.updatedAt,
});

export async function findPayout(em: EntityManager, publisherId: string, payoutId: string, forUpdate = false): Promise<Payout> {
  const payout = isUuid(payoutId)
    ? await em.findOne(Payout, { id: payoutId, publisherId }, forUpdate ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {})
    : null;
  if (!payout) throw payoutNotFound();
  return payout;
}
