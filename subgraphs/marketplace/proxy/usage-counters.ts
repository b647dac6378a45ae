import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../../../shared/logger.js';

interface PendingCounts {
  queries: number;
  revenue: bigint;
  callers: Set<string>;
}

const FLUSH_EVERY_MS = 100;

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
    let counts = this.pending.get(publisherId);
    if (!counts) this.pending.set(publisherId, (counts = { queries: 0, revenue: 0n, callers: new Set() }));
    this.timer ??= setTimeout(() => void this.flush(), FLUSH_EVERY_MS);
    return counts;
  }

  /** Writes everything gathered so far (also called at shutdown and by tests). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending;
    this.pending = new Map();
    this.flushing = this.flushing.then(() => this.write(batch)).catch((error) => this.log.error({ err: error }, 'usage counters not written'));
    return this.flushing;
  }

  private async write(batch: Map<string, PendingCounts>): Promise<void> {
    if (batch.size === 0) return;
    await this.em().transactional(async (em) => {
      for (const [publisherId, counts] of batch) {
        let newCallers = 0;
        if (counts.callers.size > 0) {
          const userIds = [...counts.callers];
          const inserted = await em.execute(
            `insert into market_publisher_agent (publisher_id, user_id, first_called_at)
             values ${userIds.map(() => '(?, ?, now())').join(', ')} on conflict do nothing returning user_id`,
            userIds.flatMap((userId) => [publisherId, userId]),
          );
          newCallers = inserted.length;
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
