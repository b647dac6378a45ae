import { AppError, badRequest, conflict, notFound } from '../errors.js';

export const insufficientBalance = () => new AppError(402, 'insufficient_balance', 'The balance does not cover this amount');

/**
 * The 402 of reserveFromFirst when its preferred account holds part of the amount: the one refusal
 * reserveSplit can turn into a hold, so only it costs the caller a split attempt.
 */
export class PartlyCovered extends AppError {
  constructor() {
    super(402, 'insufficient_balance', 'The balance does not cover this amount');
  }
}
export const idempotencyConflict = () =>
  conflict('idempotency_conflict', 'This idempotency key was already used for a different transfer');
export const pendingTransferClosed = () => conflict('pending_transfer_closed', 'This reserve was already posted or voided');
export const pendingTransferNotFound = () => notFound('Pending transfer');
export const amountExceedsReserve = () => badRequest('amount_exceeds_reserve', 'The posted amount is larger than the reserve');

const codeOf = (error: any): string | undefined => error?.code ?? error?.cause?.code;

export const isUniqueViolation = (error: unknown) => codeOf(error) === '23505';
/** A transfer naming an account that does not exist: the statement rolled back whole. */
export const isForeignKeyViolation = (error: unknown) => codeOf(error) === '23503';
export const ledgerAccountMissing = (cause?: unknown) =>
  new Error('Ledger account missing: accounts come from ensure*/pickSystemAccount', { cause });
/** Deadlocks and serialization failures: the whole statement rolled back, so it can run again. */
export const isRetryable = (error: unknown) => codeOf(error) === '40P01' || codeOf(error) === '40001';
