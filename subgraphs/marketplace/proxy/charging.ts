import type { EntityManager } from '@mikro-orm/postgresql';
import {
  ensureWalletAccount,
  pickSystemAccount,
  postPending,
  prepaidAccountId,
  reserve,
  transfer,
  voidPending,
} from '../../../shared/ledger/index.js';
import { AppError } from '../../../shared/errors.js';
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
}

const PREPAID_COVERS = `select 1 from ledger_account where id = ? and credits_posted - debits_posted - debits_pending >= ?::bigint`;

/**
 * Holds the call's price before it goes out: from the caller's prepaid credits with this publisher
 * when they cover it, else from the wallet. The database refuses an overdraft (402), so concurrent
 * calls can never spend the same money twice.
 */
export async function holdCallCharge(
  em: EntityManager,
  input: { callId: string; userId: string; publisherId: string; amount: bigint; metadata: Record<string, unknown> },
): Promise<Hold> {
  const payableAccountId = await pickSystemAccount(em, 'publisher_payable', { publisherId: input.publisherId, shardKey: input.callId });
  const hold = async (debitAccountId: string): Promise<Hold> => {
    const pending = await reserve(em, {
      idempotencyKey: `call:${input.callId}:hold`,
      debit: debitAccountId,
      credit: payableAccountId,
      amount: input.amount,
      kind: 'charge',
      reference: input.callId,
      metadata: input.metadata,
    });
    return { callId: input.callId, pendingId: pending.id, debitAccountId, payableAccountId, amount: input.amount };
  };
  const prepaid = prepaidAccountId(input.userId, input.publisherId);
  const [covered] = await em.execute(PREPAID_COVERS, [prepaid, input.amount.toString()]);
  if (covered) {
    try {
      return await hold(prepaid);
    } catch (error) {
      // Drained by a concurrent call since the check: the wallet pays instead.
      if (!(error instanceof AppError && error.status === 402)) throw error;
    }
  }
  return hold(await ensureWalletAccount(em, input.userId));
}

/**
 * Posts what the call costs (never more than held): the publisher's payable earns the price, and
 * the platform's revenue takes the fee from it.
 */
export async function captureCallCharge(em: EntityManager, hold: Hold, price: CallPrice, metadata: Record<string, unknown>): Promise<Charge> {
  const amount = price.total < hold.amount ? price.total : hold.amount;
  const fee = price.fee < amount ? price.fee : amount;
  const posted = await postPending(em, {
    pendingId: hold.pendingId,
    idempotencyKey: `call:${hold.callId}:capture`,
    amount,
    kind: 'charge',
    metadata,
  });
  if (fee > 0n) {
    await transfer(em, {
      idempotencyKey: `call:${hold.callId}:fee`,
      debit: hold.payableAccountId,
      credit: await pickSystemAccount(em, 'platform_revenue', { shardKey: hold.callId }),
      amount: fee,
      kind: 'gateway_fee',
      reference: hold.callId,
    });
  }
  return { chargeId: posted.id, amount, balanceRemaining: posted.debitBalanceAfter ?? 0n };
}

/** Unsuccessful work costs nothing: the hold is released whole. */
export async function releaseCallCharge(em: EntityManager, hold: Hold, reason: string): Promise<void> {
  await voidPending(em, { pendingId: hold.pendingId, idempotencyKey: `call:${hold.callId}:release`, metadata: { reason } });
}
