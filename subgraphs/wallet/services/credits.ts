import type { EntityManager } from '@mikro-orm/postgresql';
import { ensureWalletAccount, pickSystemAccount, transfer, type LedgerTransfer } from '../../../shared/ledger/index.js';
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

/** Pays a claim, bonus or referral out of the promotions account. `replayed` tells the caller it was paid before. */
export async function creditFromPromotions(em: EntityManager, credit: PromotionCredit): Promise<LedgerTransfer> {
  return transfer(em, {
    idempotencyKey: credit.idempotencyKey,
    debit: await pickSystemAccount(em, 'promotions', { shardKey: credit.idempotencyKey }),
    credit: await ensureWalletAccount(em, credit.userId),
    amount: credit.amount,
    kind: credit.kind,
    reference: credit.reference ?? null,
    metadata: credit.metadata ?? null,
  });
}

export const walletCreditOf = (paid: LedgerTransfer): WalletCredit => ({
  transactionId: paid.id,
  type: paid.kind,
  amount: formatMoney(paid.amount),
  balance: formatMoney(paid.creditBalanceAfter ?? 0n),
});
