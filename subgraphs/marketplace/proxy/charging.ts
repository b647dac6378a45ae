import type { EntityManager } from '@mikro-orm/postgresql';
import {
  ensureWalletAccount,
  pickSystemAccount,
  postPendingWithFee,
  prepaidAccountId,
  reserveFromFirst,
  transferAll,
  voidPending,
} from '../../../shared/ledger/index.js';
import { AppError } from '../../../shared/errors.js';
import { formatMoney } from '../../../shared/money.js';
import type { CallPrice } from '../services/pricing.js';

export interface Hold {
  callId: string;
  pendingId: string;
  debitAccountId: string;
  payableAccountId: string;
  amount: bigint;
}

export interface Charge {
  chargeId: string;
  amount: bigint;
  /** Posted balance of the account charged, after the charge. */
  balanceRemaining: bigint;
  /** What the publisher earned: the amount less the gateway fee. */
  publisherEarned: bigint;
}

/**
 * Holds the call's price before it goes out: from the caller's prepaid credits with this publisher
 * when they cover it, else from the wallet (one statement). The database refuses an overdraft
 * (402, saying what the call needs), so concurrent calls can never spend the same money twice.
 */
export async function holdCallCharge(
  em: EntityManager,
  input: { callId: string; userId: string; publisherId: string; amount: bigint; metadata: Record<string, unknown> },
): Promise<Hold> {
  const payableAccountId = await pickSystemAccount(em, 'publisher_payable', { publisherId: input.publisherId, shardKey: input.callId });
  const wallet = await ensureWalletAccount(em, input.userId);
  const pending = await reserveFromFirst(em, {
    idempotencyKey: `call:${input.callId}:hold`,
    debits: [prepaidAccountId(input.userId, input.publisherId), wallet],
    credit: payableAccountId,
    amount: input.amount,
    kind: 'charge',
    reference: input.callId,
    metadata: input.metadata,
  }).catch((error: unknown) => {
    if (!(error instanceof AppError && error.code === 'insufficient_balance')) throw error;
    throw new AppError(402, error.code, `This call needs ${formatMoney(input.amount)} USD available (price and fee, or the most it can cost); the balance does not cover it`);
  });
  return { callId: input.callId, pendingId: pending.id, debitAccountId: pending.debitAccountId, payableAccountId, amount: input.amount };
}

/** A call that failed before any charge says so: the caller need not look up its wallet to know. */
export function nothingCharged(error: unknown): unknown {
  if (!(error instanceof AppError) || error.status < 500) return error;
  return new AppError(error.status, error.code, `${error.message}; nothing was charged`, error.details);
}

export const rethrowNothingCharged = (error: unknown): never => {
  throw nothingCharged(error);
};

/**
 * Posts what the call costs (never more than held): the publisher's payable earns the price, and
 * the platform's revenue takes the fee from it.
 */
export async function captureCallCharge(em: EntityManager, hold: Hold, price: CallPrice, metadata: Record<string, unknown>): Promise<Charge> {
  const amount = price.total < hold.amount ? price.total : hold.amount;
  const fee = price.fee < amount ? price.fee : amount;
  const posted = await postPendingWithFee(em, {
    pendingId: hold.pendingId,
    idempotencyKey: `call:${hold.callId}:capture`,
    amount,
    kind: 'charge',
    metadata,
    fee,
    feeAccount: await pickSystemAccount(em, 'platform_revenue', { shardKey: hold.callId }),
    feeIdempotencyKey: `call:${hold.callId}:fee`,
  });
  return { chargeId: posted.id, amount, balanceRemaining: posted.debitBalanceAfter ?? 0n, publisherEarned: amount - fee };
}

/**
 * An answer already charged that the upstream broke off midway was not successful work: the
 * charge goes back whole, in one transaction, idempotent per call. The fee returns from the
 * platform's revenue to the publisher's payable, and all of it from there to the account that paid.
 */
export async function refundCallCharge(em: EntityManager, hold: Hold, charge: Charge, metadata: Record<string, unknown>): Promise<void> {
  if (charge.amount === 0n) return;
  const fee = charge.amount - charge.publisherEarned;
  const revenue = await pickSystemAccount(em, 'platform_revenue', { shardKey: hold.callId });
  const common = { kind: 'refund', reference: hold.callId, metadata: { ...metadata, charge_id: charge.chargeId } };
  const feeBack = { ...common, idempotencyKey: `call:${hold.callId}:refund-fee`, debit: revenue, credit: hold.payableAccountId, amount: fee };
  const chargeBack = { ...common, idempotencyKey: `call:${hold.callId}:refund`, debit: hold.payableAccountId, credit: hold.debitAccountId, amount: charge.amount };
  await transferAll(em, fee > 0n ? [feeBack, chargeBack] : [chargeBack]);
}

/** Unsuccessful work costs nothing: the hold is released whole. */
export async function releaseCallCharge(em: EntityManager, hold: Hold, reason: string): Promise<void> {
  await voidPending(em, { pendingId: hold.pendingId, idempotencyKey: `call:${hold.callId}:release`, metadata: { reason } });
}

/** What a charged answer tells the caller. */
export const chargeHeaders = (charge: Charge | null): Record<string, string> =>
  charge
    ? { 'x-charge-id': charge.chargeId, 'x-charge-amount': formatMoney(charge.amount), 'x-balance-remaining': formatMoney(charge.balanceRemaining) }
    : {};
