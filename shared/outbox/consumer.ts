import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { ChangeNotices } from '../db/change-notices.js';
import type { EventBus, EventType } from '../events.js';
import { retriedTransaction } from '../db/retried-transaction.js';
import { decodeJson } from '../json-codec.js';
import type { Logger } from '../logger.js';
import { pgArray } from '../db/pg-array.js';

/** Deliveries a process runs at once (each in its own transaction, so on its own connection). */
const WORKERS = 4;
/** Retries (after a failed handler) and notices lost while the listener reconnected are picked up this often. */
const POLL_MS = 2_000;
const MAX_BACKOFF_SECONDS = 300;
/** Delivered events and their processed marks are kept this long (an operator can see what happened), then dropped. */
const RETENTION = '7 days';
const PRUNE_EVERY_MS = 3_600_000;

interface DueDelivery {
  event_id: string;
  consumer: string;
  attempts: number;
  type: string;
  payload: string;
}

/**
 * Runs the handlers of the modules this process hosts for the events waiting in the outbox,
 * whichever process published them. Several processes (replicas) may run the same module: each
 * takes deliveries with SKIP LOCKED, and a delivery is processed, marked and dropped in one
 * transaction, so a process that dies mid-way leaves it to be taken again, and a replay finds the
 * processed mark (outbox_processed) and runs no handler twice.
 */
export class OutboxConsumer {
  private readonly consumers: string[];
  private readonly types = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private draining: Promise<void> | null = null;
  private again = false;
  private closed = false;
  private lastPrune = 0;
  /** Events written in a transaction of this process that a module here consumes, by the transaction's EntityManager. */
  private readonly writtenIn = new WeakMap<EntityManager, string[]>();

  constructor(
    private readonly orm: MikroORM,
    private readonly bus: EventBus,
    modules: readonly string[],
    private readonly log: Logger,
  ) {
    const subscriptions = bus.subscriptionsOf(modules);
    this.consumers = [...new Set(subscriptions.map((subscription) => subscription.consumer))];
    for (const { type } of subscriptions) this.types.add(type);
  }

  /** Subscribes this process's modules (deliveries are written for them from now on) and starts delivering. */
  async start(changes: ChangeNotices): Promise<void> {
    const subscriptions = this.bus.subscriptionsOf(this.consumers);
    if (subscriptions.length === 0) return;
    await (this.orm.em.fork() as EntityManager).execute(
      `insert into outbox_subscription (event_type, consumer) select * from unnest(?::text[], ?::text[]) on conflict do nothing`,
      [pgArray(subscriptions.map((s) => s.type)), pgArray(subscriptions.map((s) => s.consumer))],
    );
    this.bus.whenWritten((em, eventId, type) => this.written(em, eventId, type));
    this.orm.em.getEventManager().registerSubscriber({
      // A transaction that wrote events this process consumes delivers them before it returns, so
      // in one process a reaction is visible as soon as its cause is (a referral paid on verification).
      afterTransactionCommit: async ({ em, transaction }) => {
        if ((transaction as { savepointName?: string } | undefined)?.savepointName) return;
        const ids = this.writtenIn.get(em as EntityManager);
        if (!ids) return;
        this.writtenIn.delete(em as EntityManager);
        await this.deliverNow(ids);
      },
    });
    changes.on('outbox', (type) => {
      if (this.types.has(type)) this.wake();
    });
    changes.onResync(() => this.wake());
    this.timer = setInterval(() => this.wake(), POLL_MS);
    this.timer.unref();
    this.wake();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.draining;
  }

  private async written(em: EntityManager, eventId: string, type: string): Promise<void> {
    if (!this.types.has(type) || this.closed) return;
    if (!em.isInTransaction()) return this.deliverNow([eventId]);
    this.writtenIn.set(em, [...(this.writtenIn.get(em) ?? []), eventId]);
  }

  /** The events a transaction of this process just committed, delivered before that transaction returns (waiting for a replica that holds one). */
  private async deliverNow(eventIds: string[]): Promise<void> {
    try {
      for (const eventId of eventIds) for (const consumer of this.consumers) await this.deliverOne({ eventId, consumer });
    } catch (error) {
      this.log.error({ err: error }, 'outbox delivery failed; it is retried');
    }
  }

  /** Delivers everything due, once at a time per process; a wake during a run runs it again. */
  wake(): void {
    if (this.closed) return;
    if (this.draining) return void (this.again = true);
    this.draining = this.drain().finally(() => (this.draining = null));
  }

  private async drain(): Promise<void> {
    try {
      do {
        this.again = false;
        const worker = async () => {
          while (!this.closed && (await this.deliverOne()));
        };
        // One looks first: an idle poll is one query, and the others join only when something was due.
        if (!this.closed && (await this.deliverOne())) await Promise.all(Array.from({ length: WORKERS }, worker));
      } while (this.again && !this.closed);
      await this.prune();
    } catch (error) {
      this.log.error({ err: error }, 'outbox delivery failed; it is retried');
    }
  }

  /**
   * One delivery in one transaction: the next one due that no other process holds, or the given
   * one (waiting for a process that holds it). A handler's failure rolls its effects back and puts
   * the delivery off (exponential backoff); a deadlock or serialization failure is retried at once.
   * Each delivery has its own transaction, so the locks of one reaction are never held while another runs.
   * False when there was nothing to deliver.
   */
  async deliverOne(which?: { eventId: string; consumer: string }): Promise<boolean> {
    if (this.consumers.length === 0) return false;
    let taken: DueDelivery | undefined;
    try {
      return await retriedTransaction(this.orm.em.fork() as EntityManager, async (em) => {
        taken = undefined;
        // Taken, dropped and marked processed in one statement; a rollback (a failed handler) undoes all three.
        const [row] = await em.execute<(DueDelivery & { fresh: boolean })[]>(
          `with taken as (
             delete from outbox_delivery where (event_id, consumer) = (
               select event_id, consumer from outbox_delivery
               where ${which ? 'event_id = ? and consumer = ? for update' : 'consumer = any(?::text[]) and available_at <= now() order by available_at, event_id limit 1 for update skip locked'})
             returning event_id, consumer, attempts),
           marked as (
             insert into outbox_processed (event_id, consumer, processed_at) select event_id, consumer, now() from taken
             on conflict do nothing returning event_id)
           select taken.event_id, taken.consumer, taken.attempts, e.type, e.payload::text as payload, exists (select 1 from marked) as fresh
           from taken join outbox_event e on e.id = taken.event_id`,
          which ? [which.eventId, which.consumer] : [pgArray(this.consumers)],
        );
        if (!row) return false;
        taken = row;
        if (row.fresh) {
          const payload = decodeJson(row.payload);
          for (const handler of this.bus.handlersOf(row.consumer, row.type as EventType)) await handler(payload, em);
        }
        return true;
      });
    } catch (error) {
      if (!taken) throw error;
      await this.putOff(taken, error);
      return true;
    }
  }

  private async putOff(row: DueDelivery, error: unknown): Promise<void> {
    const backoff = Math.min(2 ** row.attempts, MAX_BACKOFF_SECONDS);
    this.log.error({ err: error, eventId: row.event_id, type: row.type, consumer: row.consumer, attempts: row.attempts + 1, retryInSeconds: backoff }, 'event handler failed; the event is delivered again later');
    await (this.orm.em.fork() as EntityManager).execute(
      `update outbox_delivery set attempts = attempts + 1, available_at = now() + make_interval(secs => ?), last_error = ? where event_id = ? and consumer = ?`,
      [backoff, String((error as Error)?.message ?? error).slice(0, 500), row.event_id, row.consumer],
    );
  }

  /** Events every subscriber has processed, and processed marks, older than RETENTION. */
  private async prune(): Promise<void> {
    if (Date.now() - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = Date.now();
    const em = this.orm.em.fork() as EntityManager;
    await em.execute(
      `delete from outbox_event e where e.created_at < now() - interval '${RETENTION}' and not exists (select 1 from outbox_delivery d where d.event_id = e.id)`,
    );
    await em.execute(`delete from outbox_processed where processed_at < now() - interval '${RETENTION}'`);
  }
}
