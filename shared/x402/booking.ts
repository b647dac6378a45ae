import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../logger.js';
import { ensurePrepaidAccount, pickSystemAccount, transferAll, type LedgerTransfer, type TransferInput } from '../ledger/index.js';
import { markPayment, type PaymentKey, type PaymentStatus } from './payments.js';

/**
 * An account named by what it is rather than by id, so a booking written down as JSON today
 * names the same shards and accounts when it is booked later.
 */
export type PlannedAccount =
  | { kind: 'onchain_clearing' | 'platform_revenue'; shardKey: string }
  | { kind: 'publisher_payable'; publisherId: string; shardKey: string }
  | { kind: 'prepaid'; userId: string; publisherId: string };

export interface PlannedTransfer {
  idempotencyKey: string;
  debit: PlannedAccount;
  credit: PlannedAccount;
  amount: bigint;
  kind: string;
  reference: string;
  metadata: Record<string, unknown>;
}

/** How a plan is kept in `x402_payment.unbooked_transfers` (amounts as strings: JSON has no bigint). */
export type StoredTransfer = Omit<PlannedTransfer, 'amount'> & { amount: string };

export const storedPlan = (plan: PlannedTransfer[]): StoredTransfer[] => plan.map((planned) => ({ ...planned, amount: planned.amount.toString() }));

/**
 * Reads a kept plan back, checking its shape: a plan that cannot be read is refused before
 * anything is booked or any status changes. A deposit kept as `settle_unknown` by the first
 * version (its account as userId and publisherId beside the amount) is read as today's plan.
 */
export function planOf(stored: unknown, key: PaymentKey): PlannedTransfer[] {
  if (!Array.isArray(stored)) throw unreadablePlan(key);
  return stored.map((entry) => {
    const planned = isFirstDepositShape(entry) ? firstDepositPlan(entry, key) : entry;
    if (!isStoredTransfer(planned)) throw unreadablePlan(key);
    return { ...planned, amount: BigInt(planned.amount) };
  });
}

const unreadablePlan = (key: PaymentKey) => new Error(`The booking plan kept with x402 payment ${paymentKeyStem(key)} cannot be read`);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const hasStrings = (value: Record<string, unknown>, ...names: string[]) => names.every((name) => typeof value[name] === 'string');

function isAccount(value: unknown): value is PlannedAccount {
  if (!isRecord(value)) return false;
  switch (value.kind) {
    case 'prepaid':
      return hasStrings(value, 'userId', 'publisherId');
    case 'publisher_payable':
      return hasStrings(value, 'publisherId', 'shardKey');
    case 'onchain_clearing':
    case 'platform_revenue':
      return hasStrings(value, 'shardKey');
    default:
      return false;
  }
}

function isStoredTransfer(value: unknown): value is StoredTransfer {
  return (
    isRecord(value) &&
    typeof value.idempotencyKey === 'string' &&
    typeof value.amount === 'string' &&
    /^[1-9][0-9]*$/.test(value.amount) &&
    typeof value.kind === 'string' &&
    typeof value.reference === 'string' &&
    isAccount(value.debit) &&
    isAccount(value.credit)
  );
}

interface FirstDepositShape {
  idempotencyKey: string;
  amount: string;
  kind: 'deposit';
  userId: string;
  publisherId: string;
}

const isFirstDepositShape = (value: unknown): value is FirstDepositShape =>
  isRecord(value) && value.kind === 'deposit' && !('debit' in value) && typeof value.userId === 'string' && typeof value.publisherId === 'string';

function firstDepositPlan(entry: FirstDepositShape, key: PaymentKey): StoredTransfer {
  return {
    idempotencyKey: entry.idempotencyKey,
    debit: { kind: 'onchain_clearing', shardKey: entry.idempotencyKey },
    credit: { kind: 'prepaid', userId: entry.userId, publisherId: entry.publisherId },
    amount: String(entry.amount),
    kind: 'deposit',
    reference: key.nonce,
    metadata: { method: 'x402', network: key.network, payer: key.payer, publisher_id: entry.publisherId },
  };
}

/** The common idempotency-key stem of everything one authorization books. */
export const paymentKeyStem = (key: PaymentKey) => `${key.network}:${key.payer}:${key.nonce}`;

function accountOf(em: EntityManager, account: PlannedAccount): Promise<string> {
  switch (account.kind) {
    case 'prepaid':
      return ensurePrepaidAccount(em, account.userId, account.publisherId);
    case 'publisher_payable':
      return pickSystemAccount(em, account.kind, { shardKey: account.shardKey, publisherId: account.publisherId });
    default:
      return pickSystemAccount(em, account.kind, { shardKey: account.shardKey });
  }
}

/**
 * Books the plan and marks the payment settled, in one transaction: both happen or neither.
 * Repeating it moves nothing twice (each transfer keeps its idempotency key).
 */
export async function bookPlan(
  em: EntityManager,
  key: PaymentKey,
  plan: PlannedTransfer[],
  transaction: string | null,
  from: readonly PaymentStatus[] = ['verified'],
): Promise<LedgerTransfer[]> {
  const inputs: TransferInput[] = await Promise.all(
    plan.map(async (planned) => ({ ...planned, debit: await accountOf(em, planned.debit), credit: await accountOf(em, planned.credit) })),
  );
  // Inside a sweep's transaction it joins it (no savepoint): a failure fails the sweep's booking whole.
  return em.transactional(
    async (tx) => {
      const db = tx as EntityManager;
      // First ledger work in the transaction: transferAll takes its account locks in the ledger's order.
      const booked = await transferAll(db, inputs);
      await markPayment(db, key, 'settled', { transaction, plan: null, from });
      return booked;
    },
    { propagation: 'required' },
  );
}

/** Waits before booking again: a database blip of about a second is ridden out while the caller waits. */
const BOOKING_RETRY_DELAYS_MS = [200, 800];

/**
 * The payer's money has moved on-chain, so whatever happens here must not lose it. A booking that
 * fails is tried again; one that still fails leaves the payment `settled_unbooked` with its plan,
 * for the sweeper (`bookUnbookedPayments`) to book exactly once later. Null then.
 */
export async function bookSettledPayment(
  em: EntityManager,
  key: PaymentKey,
  plan: PlannedTransfer[],
  transaction: string | null,
  log: Logger,
): Promise<LedgerTransfer[] | null> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await bookPlan(em, key, plan, transaction);
    } catch (error) {
      const delay = BOOKING_RETRY_DELAYS_MS[attempt];
      if (delay === undefined) {
        await keepUnbooked(em, key, 'settled_unbooked', plan, transaction, error, log);
        return null;
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

/**
 * Written down with the payment: `settled_unbooked` is booked by the sweeper, `settle_unknown`
 * waits for someone to find out on-chain whether it was paid (`npm run x402:payments`).
 */
export async function keepUnbooked(
  em: EntityManager,
  key: PaymentKey,
  status: 'settled_unbooked' | 'settle_unknown',
  plan: PlannedTransfer[],
  transaction: string | null,
  error: unknown,
  log: Logger,
): Promise<void> {
  const unbooked = storedPlan(plan);
  const where = { ...key, transaction };
  log.error({ err: error, ...where, status, unbooked }, `x402 payment kept as ${status}: it needs ${status === 'settle_unknown' ? 'checking on-chain' : 'booking'}`);
  await markPayment(em, key, status, { transaction, plan: unbooked }).catch((markError) =>
    log.error({ err: markError, ...where }, `x402 payment could not be marked ${status} either`),
  );
}
