import type { EntityManager } from '@mikro-orm/postgresql';
import {
  getAccountBalance,
  listAccountTransfers,
  listPrepaidBalances,
  walletAccountId,
  type LedgerTransfer,
} from '../../../shared/ledger/index.js';
import { formatMoney } from '../../../shared/money.js';
import { pageOf, type PageInput } from '../../../shared/paging.js';
import type { Wallet, WalletTransaction } from '../types/results.js';

export async function readWallet(em: EntityManager, userId: string): Promise<Wallet> {
  const [wallet, prepaid] = await Promise.all([
    getAccountBalance(em, walletAccountId(userId)),
    listPrepaidBalances(em, userId),
  ]);
  return {
    userId,
    balance: formatMoney(wallet.posted),
    currency: 'USD',
    pending: formatMoney(wallet.held),
    available: formatMoney(wallet.available),
    prepaidCredits: prepaid.map((entry) => ({ publisherId: entry.publisherId, balance: formatMoney(entry.balance.available) })),
  };
}

/** A ledger transfer as the wallet owner sees it: signed amount and their own balance after. */
export function walletTransactionOf(transfer: LedgerTransfer, accountId: string): WalletTransaction {
  const credit = transfer.creditAccountId === accountId;
  return {
    id: transfer.id,
    type: transfer.kind,
    direction: credit ? 'credit' : 'debit',
    amount: formatMoney(credit ? transfer.amount : -transfer.amount),
    balanceAfter: formatMoney((credit ? transfer.creditBalanceAfter : transfer.debitBalanceAfter) ?? 0n),
    reference: transfer.reference,
    metadata: transfer.metadata,
    createdAt: transfer.createdAt,
  };
}

/** Newest first; limit 1..100 (default 50). */
export async function listWalletTransactions(em: EntityManager, userId: string, page: PageInput): Promise<WalletTransaction[]> {
  const accountId = walletAccountId(userId);
  const transfers = await listAccountTransfers(em, accountId, pageOf(page));
  return transfers.map((transfer) => walletTransactionOf(transfer, accountId));
}
