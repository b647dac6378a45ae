export type TransferType = 'transfer' | 'reserve' | 'post' | 'void';
export type TransferState = 'pending' | 'posted' | 'voided';

/** One ledger movement as stored; amounts and balances in micro-dollars. */
export interface LedgerTransfer {
  id: string;
  idempotencyKey: string;
  type: TransferType;
  state: TransferState;
  debitAccountId: string;
  creditAccountId: string;
  amount: bigint;
  /** The reserve a post or void settles. */
  pendingId: string | null;
  kind: string;
  reference: string | null;
  metadata: Record<string, unknown> | null;
  /** Posted balance (credits - debits) of each side right after this transfer; null for reserves and voids. */
  debitBalanceAfter: bigint | null;
  creditBalanceAfter: bigint | null;
  createdAt: Date;
  /** True when this answer is the stored result of an earlier call with the same idempotency key. */
  replayed: boolean;
}

/**
 * What ledger statements return for a transfer, named rather than `*`: a prepared statement keeps
 * its result shape, so a column added by a later migration must not change what it returns.
 */
export const TRANSFER_COLUMNS =
  'id, idempotency_key, type, state, debit_account_id, credit_account_id, amount, pending_id, kind, reference, metadata, debit_balance_after, credit_balance_after, created_at';

const bigintOrNull = (value: unknown) => (value === null || value === undefined ? null : BigInt(value as string));

export function transferFromRow(row: Record<string, any>, replayed = false): LedgerTransfer {
  return {
    id: row.id,
    idempotencyKey: row.idempotency_key,
    type: row.type,
    state: row.state,
    debitAccountId: row.debit_account_id,
    creditAccountId: row.credit_account_id,
    amount: BigInt(row.amount),
    pendingId: row.pending_id ?? null,
    kind: row.kind,
    reference: row.reference ?? null,
    metadata: typeof row.metadata === 'string' ? JSON.parse(row.metadata) : (row.metadata ?? null),
    debitBalanceAfter: bigintOrNull(row.debit_balance_after),
    creditBalanceAfter: bigintOrNull(row.credit_balance_after),
    createdAt: row.created_at instanceof Date ? row.created_at : new Date(row.created_at),
    replayed,
  };
}
