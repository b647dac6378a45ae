import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../../../shared/logger.js';

interface PendingCounts {
  queries: number;
  revenue: bigint;
  callers: Set<string>;
}

const FLUSH_EVERY_MS = 100;
const RETRY_AFTER_MS = 1000;
/** About a minute of retries (a database restart) before a batch is given up. */
const MAX_FAILED_FLUSHES = 60;
/** Rows per insert: far below PostgreSQL's 65,535 bind parameters, whatever a batch gathered. */
const CALLERS_PER_INSERT = 5_000;

/**
 * Publisher counters (total_queries, unique_agents_served, total_revenue_atomic) are bumped for
 * every paid call. Increments are gathered for 100 ms and written in one statement per publisher,
 * so the counters do not become a hot row on the paid path; being increments, they stay right
 * with any number of replicas. `unique_agents_served` is exact: it counts new rows of
 * market_publisher_agent.
 */
export class UsageCounters {
  private pending = new Map<string, PendingCounts>();
  private timer: NodeJS.Timeout | null = null;
  private failedFlushes = 0;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly em: () => EntityManager,
    private readonly log: Logger,
  ) {}

  record(publisherId: string, userId: string | null, revenue: bigint): void {
    const counts = this.countsOf(publisherId);
    counts.queries += 1;
    counts.revenue += revenue;
    if (userId) counts.callers.add(userId);
  }

  /** A refunded call was still a query, but its revenue goes back. */
  takeBackRevenue(publisherId: string, revenue: bigint): void {
    this.countsOf(publisherId).revenue -= revenue;
  }

  private countsOf(publisherId: string): PendingCounts {
    this.schedule(FLUSH_EVERY_MS);
    return this.entryOf(publisherId);
  }

  private entryOf(publisherId: string): PendingCounts {
    let counts = this.pending.get(publisherId);
    if (!counts) this.pending.set(publisherId, (counts = { queries: 0, revenue: 0n, callers: new Set() }));
    return counts;
  }

  /** Writes everything gathered so far (also called at shutdown and by tests). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending;
    this.pending = new Map();
    this.flushing = this.flushing
      .then(() => this.write(batch))
      .then(
        () => void (this.failedFlushes = 0),
        (error) => {
          this.failedFlushes += 1;
          if (this.failedFlushes > MAX_FAILED_FLUSHES) {
            // A batch that can never be written must not stop every publisher's counters for good.
            this.log.error({ err: error, publishers: batch.size }, 'usage counters dropped after repeated failures');
            this.failedFlushes = 0;
            return;
          }
          this.log.warn({ err: error }, 'usage counters not written; kept for the next flush');
          this.restore(batch);
        },
      );
    return this.flushing;
  }

  /** A batch that could not be written (one transaction: none of it was) goes back, to be retried. */
  private restore(batch: Map<string, PendingCounts>): void {
    for (const [publisherId, counts] of batch) {
      const into = this.entryOf(publisherId);
      into.queries += counts.queries;
      into.revenue += counts.revenue;
      for (const caller of counts.callers) into.callers.add(caller);
    }
    this.schedule(RETRY_AFTER_MS);
  }

  /** Unreferenced: a pending flush never keeps a stopping process alive (shutdown flushes itself). */
  private schedule(afterMs: number): void {
    this.timer ??= setTimeout(() => void this.flush(), afterMs).unref();
  }

  /** Rows are locked in id order (publishers, then each one's callers), as every replica does: replicas never deadlock. */
  private async write(batch: Map<string, PendingCounts>): Promise<void> {
    if (batch.size === 0) return;
    const publishers = [...batch.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    await this.em().transactional(async (em) => {
      for (const [publisherId, counts] of publishers) {
        let newCallers = 0;
        const userIds = [...counts.callers].sort();
        for (let start = 0; start < userIds.length; start += CALLERS_PER_INSERT) {
          const chunk = userIds.slice(start, start + CALLERS_PER_INSERT);
          const inserted = await em.execute(
            `insert into market_publisher_agent (publisher_id, user_id, first_called_at)
             values ${chunk.map(() => '(?, ?, now())').join(', ')} on conflict do nothing returning user_id`,
            chunk.flatMap((userId) => [publisherId, userId]),
          );
          newCallers += inserted.length;
        }
        await em.execute(
          `update market_publisher set total_queries = total_queries + ?, unique_agents_served = unique_agents_served + ?,
             total_revenue_atomic_value = total_revenue_atomic_value + ?::bigint where id = ?`,
          [counts.queries, newCallers, counts.revenue.toString(), publisherId],
        );
      }
    });
  }
}
