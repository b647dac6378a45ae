import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../../../shared/logger.js';

interface PendingCounts {
  queries: number;
  revenue: bigint;
  callers: Set<string>;
}

const FLUSH_EVERY_MS = 100;
const RETRY_AFTER_MS = 1000;
/** A publisher's counts that cannot be written for this long (more than a database restart) are given up. */
const GIVE_UP_AFTER_MS = 60_000;
/** Rows per insert: far below PostgreSQL's 65,535 bind parameters, whatever a batch gathered. */
const CALLERS_PER_INSERT = 5_000;

type Batch = Map<string, PendingCounts>;
const byId = ([a]: [string, PendingCounts], [b]: [string, PendingCounts]) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Publisher counters (total_queries, unique_agents_served, total_revenue_atomic) are bumped for
 * every paid call. Increments are gathered for 100 ms and written in one transaction, so the
 * counters do not become a hot row on the paid path; being increments, they stay right with any
 * number of replicas. `unique_agents_served` is exact: it counts new rows of market_publisher_agent.
 * When that transaction fails, each publisher is written on its own: one that keeps failing is
 * retried every second and given up after a minute, and never holds back the others.
 */
export class UsageCounters {
  private pending: Batch = new Map();
  private timer: NodeJS.Timeout | null = null;
  /** Publishers whose counts could not be written, since when. */
  private failingSince = new Map<string, number>();
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
    this.timer ??= this.flushAfter(FLUSH_EVERY_MS);
    return this.entryOf(publisherId);
  }

  private entryOf(publisherId: string): PendingCounts {
    let counts = this.pending.get(publisherId);
    if (!counts) this.pending.set(publisherId, (counts = { queries: 0, revenue: 0n, callers: new Set() }));
    return counts;
  }

  /** Unreferenced: a pending flush never keeps a stopping process alive (shutdown flushes itself). */
  private flushAfter(ms: number): NodeJS.Timeout {
    return setTimeout(() => void this.flush(), ms).unref();
  }

  /** Writes everything gathered so far (also called at shutdown and by tests). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending;
    this.pending = new Map();
    this.flushing = this.flushing
      .then(() => this.write(batch))
      .catch((error) => this.log.error({ err: error }, 'usage counters not written'));
    return this.flushing;
  }

  /**
   * At shutdown: flushes until nothing is pending (a write in flight may fail and put counts back),
   * a few rounds at most; whatever is still unwritten then is logged as dropped.
   */
  async drain(): Promise<void> {
    for (let round = 0; round < 3; round++) {
      await this.flush();
      if (this.pending.size === 0) break;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.pending.size > 0) {
      const queries = [...this.pending.values()].reduce((sum, counts) => sum + counts.queries, 0);
      this.log.error({ publishers: this.pending.size, queries }, 'usage counters dropped at shutdown: they could not be written');
      this.pending = new Map();
    }
  }

  private async write(batch: Batch): Promise<void> {
    if (batch.size === 0) return;
    const publishers = [...batch.entries()].sort(byId);
    try {
      await this.em().transactional(async (em) => {
        for (const [publisherId, counts] of publishers) await writeCounts(em as EntityManager, publisherId, counts);
      });
      for (const [publisherId] of publishers) this.failingSince.delete(publisherId);
    } catch {
      await this.writeEachAlone(publishers);
    }
  }

  private async writeEachAlone(publishers: [string, PendingCounts][]): Promise<void> {
    let kept = false;
    for (const [publisherId, counts] of publishers) {
      try {
        await this.em().transactional((em) => writeCounts(em as EntityManager, publisherId, counts));
        this.failingSince.delete(publisherId);
      } catch (error) {
        const since = this.failingSince.get(publisherId) ?? Date.now();
        if (Date.now() - since >= GIVE_UP_AFTER_MS) {
          this.log.error({ err: error, publisherId, queries: counts.queries }, 'usage counters of a publisher given up after a minute of failures');
          this.failingSince.delete(publisherId);
          continue;
        }
        this.failingSince.set(publisherId, since);
        this.restore(publisherId, counts);
        kept = true;
        this.log.warn({ err: error, publisherId }, 'usage counters not written; kept for the next flush');
      }
    }
    // Retried in a second, whatever fresh calls would have scheduled.
    if (kept) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = this.flushAfter(RETRY_AFTER_MS);
    }
  }

  private restore(publisherId: string, counts: PendingCounts): void {
    const into = this.entryOf(publisherId);
    into.queries += counts.queries;
    into.revenue += counts.revenue;
    for (const caller of counts.callers) into.callers.add(caller);
  }
}

/** Rows are locked in id order (publishers, then each one's callers), as every replica does: replicas never deadlock. */
async function writeCounts(em: EntityManager, publisherId: string, counts: PendingCounts): Promise<void> {
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
