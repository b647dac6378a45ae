/**
 * The platform's money API (see README.md beside this file). Every movement is a transfer
 * between two ledger accounts, with an idempotency key; amounts are bigint micro-dollars.
 */
export {
  SYSTEM_ACCOUNT_SHARDS,
  ensurePrepaidAccount,
  ensureWalletAccount,
  ledgerAccountId,
  pickSystemAccount,
  prepaidAccountId,
  walletAccountId,
  type LedgerAccountKind,
  type SystemAccountChoice,
  type SystemAccountKind,
} from './accounts.js';
export {
  getAccountBalance,
  getAccountBalances,
  getSystemBalance,
  listAccountTransfers,
  listOwnedAccountIds,
  listPrepaidBalances,
  sumCredits,
  type AccountBalance,
  type PrepaidBalance,
} from './balances.js';
export { insufficientBalance, PartlyCovered } from './errors.js';
export type { BatchStats } from './batcher.js';
export { ledgerBatchStats, reportLedgerBatchFailures, type BatchFailureReporter } from './batchers.js';
export { checkLedger, type LedgerCheck } from './invariant.js';
export { ledgerMigrations } from './migrations.js';
export { reserveSplit } from './split-reserve.js';
export type { LedgerTransfer, TransferState, TransferType } from './transfer-record.js';
export {
  findTransfer,
  getTransfer,
  postPending,
  postPendingWithFee,
  reserve,
  reserveFromFirst,
  transfer,
  transferAll,
  voidPending,
  withLedgerLocks,
  type SettleInput,
  type TransferInput,
} from './transfers.js';
