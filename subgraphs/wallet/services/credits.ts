import type { EntityManager } from '@mikro-orm/postgresql';
import { ensureWalletAccount, pickSystemAccount, transfer, transferAll, type LedgerTransfer, type TransferInput } from '../../../shared/ledger/index.js';
import { formatMoney } from '../../../shared/money.js';
import type { WalletCredit } from '../types/results.js';

export interface PromotionCredit {
  userId: string;
  amount: bigint;
  kind: 'claim' | 'bonus' | 'referral';
  /** The idempotency key is also the once-only rule: the same key never pays twice. */
  idempotencyKey: string;
  reference?: string;
  metadata?: Record<string, unknown>;
}

const promotionTransfer = async (em: EntityManager, credit: PromotionCredit): Promise<TransferInput> => ({
  idempotencyKey: credit.idempotencyKey,
  debit: await pickSystemAccount(em, 'promotions', { shardKey: credit.idempotencyKey }),
  credit: await ensureWalletAccount(em, credit.userId),
  amount: credit.amount,
  kind: credit.kind,
  reference: credit.reference ?? null,
  metadata: credit.metadata ?? null,
});

/** Pays a claim, bonus or referral out of the promotions account. `replayed` tells the caller it was paid before. */
export async function creditFromPromotions(em: EntityManager, credit: PromotionCredit): Promise<LedgerTransfer> {
  return transfer(em, await promotionTransfer(em, credit));
}

/** Several such credits that stand or fall together, their accounts locked up front (transferAll). */
export async function creditAllFromPromotions(em: EntityManager, credits: PromotionCredit[]): Promise<LedgerTransfer[]> {
  const transfers = [];
  for (const credit of credits) transfers.push(await promotionTransfer(em, credit));
  return transferAll(em, transfers);
}

export const walletCreditOf = (paid: LedgerTransfer): WalletCredit => ({
  transactionId: paid.id,
  type: paid.kind,
  amount: formatMoney(paid.amount),
  balance: formatMoney(paid.creditBalanceAfter ?? 0n),
});
