import type { EntityManager } from '@mikro-orm/postgresql';
import type { PlatformServices } from '../services.js';
import { bookPlan, planOf, storedPlan, type PlannedTransfer, type StoredTransfer } from './booking.js';
import type { Config } from '../config.js';
import { findNetwork } from './networks.js';
import { markPayment, type PaymentKey, type PaymentStatus } from './payments.js';

const SWEEP_BATCH = 100;
/** The operator's list shows the oldest this many. */
const LIST_LIMIT = 1000;
/**
 * How long after it was recorded a payment still `verified` has lost its settlement to a crash: no
 * live call can still be settling it. A call can run as long as the orphaned-hold sweep allows a
 * hold to live (PROXY_HOLD_EXPIRY_SECONDS, at least the worst case of PROXY_TIMEOUT_MS), then verify
 * and settle; never less than 15 minutes.
 */
const staleVerifiedSeconds = (config: Config) =>
  Math.max(15 * 60, config.proxy.holdExpirySeconds + Math.ceil((2 * config.proxy.timeoutMs) / 1000) + 60);

/** SQL: a `verified` payment a crash left behind (the seconds come from the configuration, an integer). */
export const staleVerifiedWhere = (config: Config) =>
  `(status = 'verified' and created_at < now() - make_interval(secs => ${Math.floor(staleVerifiedSeconds(config))}))`;

/** SQL: a payment whose money moved, or may have moved, on-chain and is not (yet) in the ledger. */
export const unsettledWhere = (config: Config) => `(status in ('settled_unbooked', 'settle_unknown') or ${staleVerifiedWhere(config)})`;

/** Statuses an operator's finding resolves; the sweep and the live call move others. */
const UNRESOLVED: readonly PaymentStatus[] = ['settle_unknown', 'verified'];
/**
 * An authorization can be executed on-chain until its validBefore: only after that, with a margin
 * for the block's own clock, is an unanswered settlement known never to have happened.
 */
const EXPIRY_MARGIN = `interval '5 minutes'`;
/** Payments recorded before validBefore was kept count as expired a day after they were recorded. */
const UNRECORDED_VALIDITY = `interval '1 day'`;

/** A payment whose money moved, or may have moved, on-chain but is not (yet) in the ledger. */
export interface UnsettledPayment extends PaymentKey {
  status: 'settled_unbooked' | 'settle_unknown' | 'verified';
  amount: string;
  payTo: string;
  resource: string;
  transaction: string | null;
  createdAt: Date;
  validBefore: Date | null;
  unbookedTransfers: StoredTransfer[];
}

/** Unbooked and unknown payments, and `verified` ones a crash left between settling and recording it. */
export async function listUnsettledPayments(em: EntityManager, config: Config): Promise<UnsettledPayment[]> {
  const rows = await em.execute(
    `select network, payer, nonce, status, amount::text, pay_to, resource, transaction, created_at, valid_before, unbooked_transfers
     from x402_payment
     where ${unsettledWhere(config)}
     order by created_at limit ${LIST_LIMIT}`,
  );
  return rows.map((row) => ({
    network: row.network,
    payer: row.payer,
    nonce: row.nonce,
    status: row.status,
    amount: row.amount,
    payTo: row.pay_to,
    resource: row.resource,
    transaction: row.transaction,
    createdAt: row.created_at,
    validBefore: row.valid_before,
    unbookedTransfers: row.unbooked_transfers ?? [],
  }));
}

/** What a late booking needs of the platform: its log, its events (publisher counters follow them) and its timeouts. */
export type Bookkeeper = Pick<PlatformServices, 'log' | 'events' | 'config'>;

/**
 * What the publisher earned by a call payment: its share, kept with the payment; for one recorded
 * before shares were kept, what its plan credits to publisher payables.
 */
function publisherEarningsOf(row: { publisher_id: string | null; publisher_share: string | null }, plan: PlannedTransfer[]) {
  if (row.publisher_id) return BigInt(row.publisher_share ?? 0) > 0n ? [{ publisherId: row.publisher_id, amount: BigInt(row.publisher_share!) }] : [];
  return plan.flatMap(({ credit, amount }) => (credit.kind === 'publisher_payable' ? [{ publisherId: credit.publisherId, amount }] : []));
}

/**
 * Books one `settled_unbooked` payment from the plan it keeps, with the row locked: replicas
 * sweeping at once skip a row another is booking, and the plan's idempotency keys make even a
 * booking that committed unseen earlier move nothing twice. What the publisher earned by a call
 * payment is announced in the same transaction. False when it is no longer unbooked.
 */
async function bookUnbooked(em: EntityManager, key: PaymentKey, bookkeeper: Bookkeeper): Promise<boolean> {
  return em.transactional(async (tx) => {
    const db = tx as EntityManager;
    const [row] = await db.execute(
      `select transaction, unbooked_transfers, publisher_id, publisher_share::text from x402_payment
       where network = ? and payer = ? and nonce = ? and status = 'settled_unbooked' for update skip locked`,
      [key.network, key.payer, key.nonce],
    );
    if (!row) return false;
    // A row without a plan is refused as unreadable, never booked as an empty plan.
    const plan = planOf(row.unbooked_transfers, key);
    await bookPlan(db, key, plan, row.transaction, ['settled_unbooked']);
    const earnings = publisherEarningsOf(row as { publisher_id: string | null; publisher_share: string | null }, plan);
    if (earnings.length > 0) await bookkeeper.events.publish('x402.booked_late', { publisherEarnings: earnings }, db);
    return true;
  });
}

/**
 * One sweep: books what it can, logs what it cannot. A payment that failed is tried after the
 * others next time, so a few that keep failing never hold back the rest.
 */
export async function bookUnbookedPayments(em: EntityManager, bookkeeper: Bookkeeper): Promise<{ booked: number; failed: number }> {
  const rows = await em.execute(
    `select network, payer, nonce from x402_payment where status = 'settled_unbooked'
     order by booking_tried_at nulls first, settled_at limit ${SWEEP_BATCH}`,
  );
  const outcome = { booked: 0, failed: 0 };
  for (const key of rows as PaymentKey[]) {
    try {
      if (await bookUnbooked(em, key, bookkeeper)) outcome.booked += 1;
    } catch (error) {
      outcome.failed += 1;
      bookkeeper.log.error({ err: error, ...key }, 'x402 payment still cannot be booked');
      await em
        .execute(`update x402_payment set booking_tried_at = now() where network = ? and payer = ? and nonce = ?`, [key.network, key.payer, key.nonce])
        .catch(() => undefined);
    }
  }
  return outcome;
}

/**
 * Sweeps until a sweep books nothing more: every payment that can be booked is, however long the
 * backlog. `failed` counts those that still cannot be, from the last sweep (failing ones go last).
 */
export async function bookAllUnbookedPayments(em: EntityManager, bookkeeper: Bookkeeper): Promise<{ booked: number; failed: number }> {
  let booked = 0;
  for (;;) {
    const sweep = await bookUnbookedPayments(em, bookkeeper);
    booked += sweep.booked;
    if (sweep.booked === 0) return { booked, failed: sweep.failed };
  }
}

/** What was found on-chain: settled in `transaction`, or never. */
export type UnknownOutcome = { settled: true; transaction: string } | { settled: false };
export type Resolution = 'not_found' | 'no_plan' | 'not_expired' | 'failed' | 'booked' | 'booking_pending';

/**
 * What someone found out on-chain about a `settle_unknown` payment, or one a crash left
 * `verified` (past `staleVerifiedSeconds`: younger ones may still be settling). Settled: it becomes
 * `settled_unbooked` with its transaction as the reference, and is booked at once (`booked`) or,
 * if that fails, by the next sweep (`booking_pending`). Not settled: `failed`, but only once its
 * authorization has expired (`not_expired` before: a transaction still in the mempool may yet
 * execute it); its plan is kept. A plan that cannot be read changes nothing and throws.
 */
export async function resolveUnknownPayment(em: EntityManager, given: PaymentKey, outcome: UnknownOutcome, bookkeeper: Bookkeeper): Promise<Resolution> {
  // As an operator may type it: a network by its name (base-sepolia), a checksummed payer, an upper-case nonce.
  const key = { network: findNetwork(given.network)?.caip2 ?? given.network, payer: given.payer.toLowerCase(), nonce: given.nonce.toLowerCase() };
  const resolution = await em.transactional(async (tx): Promise<Resolution> => {
    const db = tx as EntityManager;
    const [row] = await db.execute(
      `select unbooked_transfers, coalesce(valid_before, created_at + ${UNRECORDED_VALIDITY}) < now() - ${EXPIRY_MARGIN} as expired
       from x402_payment where network = ? and payer = ? and nonce = ?
       and (status = 'settle_unknown' or ${staleVerifiedWhere(bookkeeper.config)}) for update`,
      [key.network, key.payer, key.nonce],
    );
    if (!row) return 'not_found';
    if (!outcome.settled) {
      if (!row.expired) return 'not_expired';
      await markPayment(db, key, 'failed', { from: UNRESOLVED });
      return 'failed';
    }
    // Recorded before plans were kept from the start: what it would book is not known.
    if (row.unbooked_transfers === null) return 'no_plan';
    // Nothing of it was booked yet, so the plan may take the transaction as its reference.
    const plan = planOf(row.unbooked_transfers, key);
    const referenced = plan.map((planned) => ({ ...planned, reference: outcome.transaction }));
    await markPayment(db, key, 'settled_unbooked', { transaction: outcome.transaction, plan: storedPlan(referenced), from: UNRESOLVED });
    return 'booking_pending';
  });
  if (resolution !== 'booking_pending') return resolution;
  try {
    return (await bookUnbooked(em, key, bookkeeper)) ? 'booked' : 'booking_pending';
  } catch (error) {
    bookkeeper.log.error({ err: error, ...key }, 'x402 payment resolved as settled, but not booked yet: the sweep will book it');
    return 'booking_pending';
  }
}
