import type { EntityManager } from '@mikro-orm/postgresql';
import {
  ensureWalletAccount,
  PartlyCovered,
  pickSystemAccount,
  postPendingWithFee,
  prepaidAccountId,
  reserveFromFirst,
  reserveSplit,
  transferAll,
  voidPending,
  withLedgerLocks,
  type LedgerTransfer,
} from '../../../shared/ledger/index.js';
import { AppError } from '../../../shared/errors.js';
import type { Logger } from '../../../shared/logger.js';
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

/** The key that releases a call's hold, from the hold's own key: `call:…:hold[:rest]` → `call:…:release[:rest]`. */
export const releaseKeyOf = (holdKey: string) => holdKey.replace(/:hold(?=(:rest)?$)/, ':release');
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
  const refusal = () =>
    new AppError(402, 'insufficient_balance', `This call needs ${formatMoney(input.amount)} USD available (price and fee, or the most it can cost); the balance does not cover it`);
  let held: LedgerTransfer[] | null;
  try {
    held = [await reserveFromFirst(em, request)];
  } catch (error) {
    if (!(error instanceof AppError && error.code === 'insufficient_balance')) throw error;
    // Only a refusal that left prepaid credits over is worth a split; any other is final.
    held = error instanceof PartlyCovered ? await reserveSplit(em, request) : null;
  }
  if (!held) throw refusal();
  return { callId: input.callId, parts: held.map(partOf) as Hold['parts'], payableAccountId, amount: input.amount };
}

const smaller = (a: bigint, b: bigint) => (a < b ? a : b);

/** What each held part pays of `amount` and of its `fee`: prepaid credits first. */
function sharesOf(hold: Hold, amount: bigint, fee: bigint): { take: bigint; takeFee: bigint }[] {
  let left = amount;
  let feeLeft = fee;
  return hold.parts.map((part) => {
    const take = smaller(left, part.amount);
    const takeFee = smaller(feeLeft, take);
    left -= take;
    feeLeft -= takeFee;
    return { take, takeFee };
  });
}

/** Releases one part of a call's hold, by the call's own release key. */
const releasePart = (em: EntityManager, hold: Hold, index: number, reason: string) =>
  voidPending(em, { pendingId: hold.parts[index]!.pendingId, idempotencyKey: partKey(hold.callId, 'release', index), metadata: { reason } });

/** A part not released now stays held until the orphan sweep releases it: logged, never thrown. */
async function releasePartOrLog(em: EntityManager, hold: Hold, index: number, reason: string, log: Logger): Promise<void> {
  await releasePart(em, hold, index, reason).catch((error) =>
    log.error({ err: error, callId: hold.callId, pendingId: hold.parts[index]!.pendingId, reason }, 'hold of a call not released here; the orphan sweep releases it if still pending'),
  );
}

/**
 * Posts what the call costs (never more than held): the publisher's payable earns the price, and
 * the platform's revenue takes the fee from it. When one part pays it all (one account, or prepaid
 * credits that covered a pay-per-use cost), that part is posted with the others of the paid path
 * and a wallet part not needed is released after; when both parts pay, they are posted together
 * in one transaction (withLedgerLocks). A charge that fails posted nothing: the hold is released
 * before the error is rethrown, so no caller need do it. `log` tells of a release that failed,
 * left to the orphan sweep.
 */
export async function captureCallCharge(
  em: EntityManager,
  hold: Hold,
  price: CallPrice,
  metadata: Record<string, unknown>,
  log: Logger,
): Promise<Charge> {
  try {
    return await postCallCharge(em, hold, price, metadata, log);
  } catch (error) {
    // Were a part posted after all, its release would be refused as closed and change nothing.
    await Promise.all(hold.parts.map((_part, index) => releasePartOrLog(em, hold, index, 'charge_failed', log)));
    throw error;
  }
}

async function postCallCharge(em: EntityManager, hold: Hold, price: CallPrice, metadata: Record<string, unknown>, log: Logger): Promise<Charge> {
  const amount = smaller(price.total, hold.amount);
  const fee = smaller(price.fee, amount);
  const feeAccount = await pickSystemAccount(em, 'platform_revenue', { shardKey: hold.callId });
  const shares = sharesOf(hold, amount, fee);
  const post = (db: EntityManager, index: number) =>
    postPendingWithFee(db, {
      pendingId: hold.parts[index]!.pendingId,
      idempotencyKey: partKey(hold.callId, 'capture', index),
      amount: shares[index]!.take,
      kind: 'charge',
      metadata,
      fee: shares[index]!.takeFee,
      feeAccount,
      feeIdempotencyKey: partKey(hold.callId, 'fee', index),
    });
  const chargeOf = (posted: LedgerTransfer[]): Charge => ({
    chargeId: posted[0]!.id,
    amount,
    balanceRemaining: posted[posted.length - 1]!.debitBalanceAfter ?? 0n,
    publisherEarned: amount - fee,
    paid: shares.map((share) => share.take),
  });
  if (hold.parts.length === 1 || shares[1]!.take === 0n) {
    const posted = await post(em, 0);
    if (hold.parts.length > 1) await releasePartOrLog(em, hold, 1, 'not_needed', log);
    return chargeOf([posted]);
  }
  const reserves = hold.parts.map((part) => part.pendingId);
  const accounts = [...hold.parts.map((part) => part.debitAccountId), hold.payableAccountId, feeAccount];
  return withLedgerLocks(em, { reserves, accounts }, async (tx) => chargeOf([await post(tx, 0), await post(tx, 1)]));
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
  const released = await Promise.allSettled(hold.parts.map((_part, index) => releasePart(em, hold, index, reason)));
  const failed = released.find((outcome) => outcome.status === 'rejected');
  if (failed) throw failed.reason;
}

/** What a charged answer tells the caller. */
export const chargeHeaders = (charge: Charge | null): Record<string, string> =>
  charge
    ? { 'x-charge-id': charge.chargeId, 'x-charge-amount': formatMoney(charge.amount), 'x-balance-remaining': formatMoney(charge.balanceRemaining) }
    : {};
