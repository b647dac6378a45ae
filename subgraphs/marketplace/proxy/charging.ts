import type { EntityManager } from '@mikro-orm/postgresql';
import {
  ensureWalletAccount,
  lockLedgerAccounts,
  pickSystemAccount,
  postPendingWithFee,
  prepaidAccountId,
  reserveFromFirst,
  reserveSplit,
  transferAll,
  voidPending,
  type LedgerTransfer,
} from '../../../shared/ledger/index.js';
import { AppError } from '../../../shared/errors.js';
import { formatMoney } from '../../../shared/money.js';
import type { CallPrice } from '../services/pricing.js';

/** What one account holds for a call. */
export interface HeldPart {
  pendingId: string;
  debitAccountId: string;
  amount: bigint;
}

export interface Hold {
  callId: string;
  /** One account; or prepaid credits, then the wallet, when the credits cover only part of the call. */
  parts: [HeldPart] | [HeldPart, HeldPart];
  payableAccountId: string;
  /** All that is held. */
  amount: bigint;
}

export interface Charge {
  chargeId: string;
  amount: bigint;
  /** Posted balance of the account charged last, after the charge. */
  balanceRemaining: bigint;
  /** What the publisher earned: the amount less the gateway fee. */
  publisherEarned: bigint;
  /** What each held part paid, in the hold's order (a refund gives it back there). */
  paid: bigint[];
}

/** The idempotency keys of a call's second part end in `:rest`. */
const partKey = (callId: string, step: string, index: number) => `call:${callId}:${step}${index === 0 ? '' : ':rest'}`;
const partOf = (pending: LedgerTransfer): HeldPart => ({ pendingId: pending.id, debitAccountId: pending.debitAccountId, amount: pending.amount });

/**
 * Holds the call's price before it goes out: from the caller's prepaid credits with this publisher
 * when they cover it, else from the wallet (one statement); when the credits cover only part, all
 * of them and the rest from the wallet (a remainder smaller than a call is spent too). The
 * database refuses an overdraft (402, saying what the call needs), so concurrent calls can never
 * spend the same money twice.
 */
export async function holdCallCharge(
  em: EntityManager,
  input: { callId: string; userId: string; publisherId: string; amount: bigint; metadata: Record<string, unknown> },
): Promise<Hold> {
  const payableAccountId = await pickSystemAccount(em, 'publisher_payable', { publisherId: input.publisherId, shardKey: input.callId });
  const wallet = await ensureWalletAccount(em, input.userId);
  const request = {
    idempotencyKey: partKey(input.callId, 'hold', 0),
    debits: [prepaidAccountId(input.userId, input.publisherId), wallet] as [string, string],
    credit: payableAccountId,
    amount: input.amount,
    kind: 'charge',
    reference: input.callId,
    metadata: input.metadata,
  };
  let parts: Hold['parts'];
  try {
    parts = [partOf(await reserveFromFirst(em, request))];
  } catch (error) {
    if (!(error instanceof AppError && error.code === 'insufficient_balance')) throw error;
    const split = await reserveSplit(em, request);
    if (!split) throw new AppError(402, error.code, `This call needs ${formatMoney(input.amount)} USD available (price and fee, or the most it can cost); the balance does not cover it`);
    parts = split.length === 1 ? [partOf(split[0])] : [partOf(split[0]), partOf(split[1])];
  }
  return { callId: input.callId, parts, payableAccountId, amount: input.amount };
}

/**
 * Posts what the call costs (never more than held): the publisher's payable earns the price, and
 * the platform's revenue takes the fee from it. A split hold is posted part by part, prepaid
 * credits first, in one transaction; a part not needed is released.
 */
export async function captureCallCharge(em: EntityManager, hold: Hold, price: CallPrice, metadata: Record<string, unknown>): Promise<Charge> {
  const amount = price.total < hold.amount ? price.total : hold.amount;
  const fee = price.fee < amount ? price.fee : amount;
  const feeAccount = await pickSystemAccount(em, 'platform_revenue', { shardKey: hold.callId });
  const postParts = async (db: EntityManager): Promise<Charge> => {
    let left = amount;
    let feeLeft = fee;
    const paid: bigint[] = [];
    const posted: LedgerTransfer[] = [];
    for (const [index, part] of hold.parts.entries()) {
      const take = left < part.amount ? left : part.amount;
      const takeFee = feeLeft < take ? feeLeft : take;
      paid.push(take);
      if (take === 0n && index > 0) {
        await voidPending(db, { pendingId: part.pendingId, idempotencyKey: partKey(hold.callId, 'release', index), metadata: { reason: 'not_needed' } });
        continue;
      }
      posted.push(
        await postPendingWithFee(db, {
          pendingId: part.pendingId,
          idempotencyKey: partKey(hold.callId, 'capture', index),
          amount: take,
          kind: 'charge',
          metadata,
          fee: takeFee,
          feeAccount,
          feeIdempotencyKey: partKey(hold.callId, 'fee', index),
        }),
      );
      left -= take;
      feeLeft -= takeFee;
    }
    const last = posted[posted.length - 1]!;
    return { chargeId: posted[0]!.id, amount, balanceRemaining: last.debitBalanceAfter ?? 0n, publisherEarned: amount - fee, paid };
  };
  if (hold.parts.length === 1) return postParts(em);
  return em.transactional(async (tx) => {
    const db = tx as EntityManager;
    await lockLedgerAccounts(db, [...hold.parts.map((part) => part.debitAccountId), hold.payableAccountId, feeAccount]);
    return postParts(db);
  });
}

/**
 * An answer already charged that the upstream broke off midway was not successful work: the
 * charge goes back whole, in one transaction, idempotent per call. The fee returns from the
 * platform's revenue to the publisher's payable, and all of it from there to the accounts that paid.
 */
export async function refundCallCharge(em: EntityManager, hold: Hold, charge: Charge, metadata: Record<string, unknown>): Promise<void> {
  if (charge.amount === 0n) return;
  const fee = charge.amount - charge.publisherEarned;
  const revenue = await pickSystemAccount(em, 'platform_revenue', { shardKey: hold.callId });
  const common = { kind: 'refund', reference: hold.callId, metadata: { ...metadata, charge_id: charge.chargeId } };
  const feeBack = { ...common, idempotencyKey: `call:${hold.callId}:refund-fee`, debit: revenue, credit: hold.payableAccountId, amount: fee };
  const chargeBacks = hold.parts.flatMap((part, index) =>
    charge.paid[index]! > 0n
      ? [{ ...common, idempotencyKey: partKey(hold.callId, 'refund', index), debit: hold.payableAccountId, credit: part.debitAccountId, amount: charge.paid[index]! }]
      : [],
  );
  await transferAll(em, fee > 0n ? [feeBack, ...chargeBacks] : chargeBacks);
}

/** Unsuccessful work costs nothing: the hold is released whole (each part is tried, even when one fails). */
export async function releaseCallCharge(em: EntityManager, hold: Hold, reason: string): Promise<void> {
  const released = await Promise.allSettled(
    hold.parts.map((part, index) => voidPending(em, { pendingId: part.pendingId, idempotencyKey: partKey(hold.callId, 'release', index), metadata: { reason } })),
  );
  const failed = released.find((outcome) => outcome.status === 'rejected');
  if (failed) throw failed.reason;
}

/** What a charged answer tells the caller. */
export const chargeHeaders = (charge: Charge | null): Record<string, string> =>
  charge
    ? { 'x-charge-id': charge.chargeId, 'x-charge-amount': formatMoney(charge.amount), 'x-balance-remaining': formatMoney(charge.balanceRemaining) }
    : {};
