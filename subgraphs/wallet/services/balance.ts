import type { EntityManager } from '@mikro-orm/postgresql';
import {
  getAccountBalance,
  listAccountTransfers,
  listOwnedAccountIds,
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

/** A ledger transfer as its owner sees it: signed amount and the balance after on their side. */
export function walletTransactionOf(transfer: LedgerTransfer, owned: Set<string>): WalletTransaction {
  const credit = owned.has(transfer.creditAccountId);
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

/** Movements of the wallet and of the prepaid credits, newest first; limit 1..100 (default 50). */
export async function listWalletTransactions(em: EntityManager, userId: string, page: PageInput): Promise<WalletTransaction[]> {
  const range = pageOf(page);
  const owned = new Set(await listOwnedAccountIds(em, userId));
  const transfers = await listAccountTransfers(em, [...owned], range);
  return transfers.map((transfer) => walletTransactionOf(transfer, owned));
}
