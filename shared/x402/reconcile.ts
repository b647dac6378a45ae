import type { EntityManager } from '@mikro-orm/postgresql';
import type { PlatformServices } from '../services.js';
import { bookPlan, planOf, type PlannedTransfer, type StoredTransfer } from './booking.js';
import { markPayment, type PaymentKey } from './payments.js';

const SWEEP_EVERY_MS = 60_000;
const SWEEP_BATCH = 100;

/** A payment whose money moved, or may have moved, on-chain but is not yet in the ledger. */
export interface UnsettledPayment extends PaymentKey {
  status: 'settled_unbooked' | 'settle_unknown';
  amount: string;
  payTo: string;
  resource: string;
  transaction: string | null;
  createdAt: Date;
  unbookedTransfers: StoredTransfer[];
}

export async function listUnsettledPayments(em: EntityManager, limit = 1000): Promise<UnsettledPayment[]> {
  const rows = await em.execute(
    `select network, payer, nonce, status, amount::text, pay_to, resource, transaction, created_at, unbooked_transfers
     from x402_payment where status in ('settled_unbooked', 'settle_unknown') order by created_at limit ?`,
    [limit],
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
    unbookedTransfers: row.unbooked_transfers ?? [],
  }));
}

/** What a late booking needs of the platform: its log, and its events (publisher counters follow them). */
export type Bookkeeper = Pick<PlatformServices, 'log' | 'events'>;

/** The publisher shares of a plan: its transfers into publisher payables. */
function publisherEarnings(plan: PlannedTransfer[]) {
  return plan.flatMap(({ credit, amount }) => (credit.kind === 'publisher_payable' ? [{ publisherId: credit.publisherId, amount }] : []));
}

/**
 * Books one `settled_unbooked` payment from the plan it keeps, with the row locked: replicas
 * sweeping at once skip a row another is booking, and the plan's idempotency keys make even a
 * booking that committed unseen earlier move nothing twice. What publishers earned is announced in
 * the same transaction. False when it is no longer unbooked.
 */
async function bookUnbooked(em: EntityManager, key: PaymentKey, bookkeeper: Bookkeeper): Promise<boolean> {
  return em.transactional(async (tx) => {
    const db = tx as EntityManager;
    const [row] = await db.execute(
      `select transaction, unbooked_transfers from x402_payment
       where network = ? and payer = ? and nonce = ? and status = 'settled_unbooked' for update skip locked`,
      [key.network, key.payer, key.nonce],
    );
    if (!row) return false;
    const plan = planOf(row.unbooked_transfers ?? []);
    await bookPlan(db, key, plan, row.transaction);
    const earnings = publisherEarnings(plan);
    if (earnings.length > 0) await bookkeeper.events.publish('x402.booked_late', { publisherEarnings: earnings }, db);
    return true;
  });
}

/** One sweep: books what it can, logs what it cannot (it is tried again on the next sweep). */
export async function bookUnbookedPayments(em: EntityManager, bookkeeper: Bookkeeper): Promise<{ booked: number; failed: number }> {
  const rows = await em.execute(
    `select network, payer, nonce from x402_payment where status = 'settled_unbooked' order by settled_at limit ${SWEEP_BATCH}`,
  );
  const outcome = { booked: 0, failed: 0 };
  for (const key of rows as PaymentKey[]) {
    try {
      if (await bookUnbooked(em, key, bookkeeper)) outcome.booked += 1;
    } catch (error) {
      outcome.failed += 1;
      bookkeeper.log.error({ err: error, ...key }, 'x402 payment still cannot be booked');
    }
  }
  return outcome;
}

export function startUnbookedPaymentSweeper(services: PlatformServices): void {
  const timer = setInterval(() => {
    bookUnbookedPayments(services.orm.em.fork() as EntityManager, services)
      .then(({ booked }) => booked > 0 && services.log.warn({ booked }, 'x402 payments booked late'))
      .catch((error) => services.log.error({ err: error }, 'x402 booking sweep failed'));
  }, SWEEP_EVERY_MS);
  timer.unref();
  services.onShutdown(async () => clearInterval(timer));
}

export type UnknownOutcome = { settled: true; transaction: string } | { settled: false };

/**
 * What someone found out on-chain about a `settle_unknown` payment. Settled: it becomes
 * `settled_unbooked` with its transaction as the reference, and is booked at once (`booked`) or,
 * if that fails, by the next sweep (`booking_pending`). Not settled (the authorization expired
 * unused): `failed`, and nothing is booked.
 */
export async function resolveUnknownPayment(
  em: EntityManager,
  given: PaymentKey,
  outcome: UnknownOutcome,
  bookkeeper: Bookkeeper,
): Promise<'not_found' | 'failed' | 'booked' | 'booking_pending'> {
  const key = { ...given, payer: given.payer.toLowerCase() };
  const found = await em.transactional(async (tx) => {
    const db = tx as EntityManager;
    const [row] = await db.execute(
      `select unbooked_transfers from x402_payment where network = ? and payer = ? and nonce = ? and status = 'settle_unknown' for update`,
      [key.network, key.payer, key.nonce],
    );
    if (!row) return false;
    if (!outcome.settled) {
      await markPayment(db, key, 'failed', null);
      return true;
    }
    // Nothing of it was booked yet, so the plan may take the transaction as its reference.
    const plan = ((row.unbooked_transfers ?? []) as StoredTransfer[]).map((planned) => ({ ...planned, reference: outcome.transaction }));
    await markPayment(db, key, 'settled_unbooked', outcome.transaction, plan);
    return true;
  });
  if (!found) return 'not_found';
  if (!outcome.settled) return 'failed';
  try {
    return (await bookUnbooked(em, key, bookkeeper)) ? 'booked' : 'booking_pending';
  } catch (error) {
    bookkeeper.log.error({ err: error, ...key }, 'x402 payment resolved as settled, but not booked yet: the sweep will book it');
    return 'booking_pending';
  }
}
