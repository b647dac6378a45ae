import type { EntityManager } from '@mikro-orm/postgresql';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { ledgerBatchStats } from './ledger/index.js';
import type { Logger } from './logger.js';

/** How a paid call ended, as far as money goes. */
export type PaidCallOutcome =
  | 'charged'
  | 'released'
  | 'free'
  | 'refunded'
  | 'onchain_settled'
  | 'onchain_unbooked'
  | 'onchain_dropped';

const SECONDS_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * What the platform reports at GET /metrics, in Prometheus' text format: one registry per running
 * platform (tests run several in one process). Counters are bumped where things happen; the
 * ledger's state is read when scraped, through small indexes (pending holds, unsettled payments).
 */
export class PlatformMetrics {
  readonly registry = new Registry();
  readonly httpRequests = new Histogram({
    name: 'acp_http_request_duration_seconds',
    help: 'Requests answered, by surface (graphql, publishers, rest) and status class, with their duration',
    labelNames: ['surface', 'status_class'] as const,
    buckets: SECONDS_BUCKETS,
    registers: [this.registry],
  });
  readonly paidCalls = new Counter({
    name: 'acp_paid_calls_total',
    help: 'Proxied calls that reached the upstream, by how they ended for the money',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly chargedMicros = new Counter({
    name: 'acp_charged_microdollars_total',
    help: 'Micro-dollars charged to wallets for proxied calls (price plus fee, before refunds)',
    registers: [this.registry],
  });
  readonly upstreamResponse = new Histogram({
    name: 'acp_upstream_response_seconds',
    help: 'Time from sending a proxied call to the upstream until its response headers',
    buckets: SECONDS_BUCKETS,
    registers: [this.registry],
  });

  constructor(em: () => EntityManager, log: Logger) {
    collectDefaultMetrics({ register: this.registry, prefix: 'acp_' });
    const readFailed = (what: string) => (error: unknown) => log.warn({ err: error }, `metrics: ${what} not read`);
    new Gauge({
      name: 'acp_ledger_pending_holds',
      help: 'Call holds not yet posted or voided',
      registers: [this.registry],
      async collect() {
        const [row] = await em().execute(`select count(*)::int as holds from ledger_transfer where type = 'reserve' and state = 'pending'`).catch(readFailed('pending holds')) ?? [];
        if (row) this.set(row.holds);
      },
    });
    new Gauge({
      name: 'acp_ledger_oldest_pending_hold_seconds',
      help: 'Age of the oldest pending hold (an orphan sweep releases holds older than PROXY_HOLD_EXPIRY_SECONDS)',
      registers: [this.registry],
      async collect() {
        const [row] = await em()
          .execute(`select coalesce(extract(epoch from now() - min(created_at)), 0)::float8 as age from ledger_transfer where type = 'reserve' and state = 'pending'`)
          .catch(readFailed('oldest pending hold')) ?? [];
        if (row) this.set(row.age);
      },
    });
    new Gauge({
      name: 'acp_x402_unsettled_payments',
      help: 'On-chain payments not yet in the ledger: settled_unbooked (the sweep books them) and settle_unknown (an operator must check them)',
      labelNames: ['status'] as const,
      registers: [this.registry],
      async collect() {
        const rows = await em()
          .execute(`select status, count(*)::int as payments from x402_payment where status in ('settled_unbooked', 'settle_unknown') group by status`)
          .catch(readFailed('unsettled payments'));
        if (!rows) return;
        const counts = new Map(rows.map((row) => [row.status, row.payments]));
        for (const status of ['settled_unbooked', 'settle_unknown']) this.set({ status }, counts.get(status) ?? 0);
      },
    });
    new Gauge({
      name: 'acp_ledger_batched_items',
      help: 'Holds and posts this process sent, by statement and how: in a batch, alone, or handed back after a batch left them out',
      labelNames: ['statement', 'how'] as const,
      registers: [this.registry],
      async collect() {
        const stats = await ledgerBatchStats(em()).catch(readFailed('ledger batch stats'));
        if (!stats) return;
        for (const [statement, counts] of [['reserve', stats.reserves], ['post', stats.posts]] as const) {
          this.set({ statement, how: 'batched' }, counts.settled);
          this.set({ statement, how: 'alone' }, counts.alone);
          this.set({ statement, how: 'handed_back' }, counts.handedBack);
        }
      },
    });
  }

  /** Which part of the interface a request path belongs to: a small, fixed set of label values. */
  static surfaceOf(path: string): 'graphql' | 'publishers' | 'rest' {
    if (path.startsWith('/graphql')) return 'graphql';
    return path.startsWith('/publishers/') ? 'publishers' : 'rest';
  }
}
