import type { EntityManager } from '@mikro-orm/postgresql';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { ledgerBatchStats } from './ledger/index.js';
import type { Config } from './config.js';
import type { Logger } from './logger.js';
import { settledWithin } from './timing.js';
import { unsettledWhere } from './x402/reconcile.js';

/** How a paid call ended, as far as money goes. */
export type PaidCallOutcome =
  | 'charged'
  | 'released'
  | 'free'
  | 'onchain_settled'
  | 'onchain_unbooked'
  | 'onchain_dropped';

const SCRAPE_STATEMENT_TIMEOUT_MS = 2000;
const SCRAPE_DEADLINE_MS = 3000;
const SECONDS_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** The ledger's state a scrape reports, read in one transaction. */
interface LedgerState {
  pendingHolds: number;
  oldestHoldSeconds: number;
  /** settled_unbooked, settle_unknown and verified_stale (a crash left it verified) payments, by status. */
  unsettledPayments: Map<string, number>;
}

/** Each statement bounded (2 s): a scrape must not hold for long a connection that paid calls wait for. */
function ledgerState(em: EntityManager, config: Config): Promise<LedgerState> {
  return em.transactional(async (tx) => {
    await tx.execute(`set local statement_timeout = ${SCRAPE_STATEMENT_TIMEOUT_MS}`);
    const [holds] = await tx.execute(
      `select count(*)::int as count, coalesce(extract(epoch from now() - min(created_at)), 0)::float8 as oldest
       from ledger_transfer where type = 'reserve' and state = 'pending'`,
    );
    const payments = await tx.execute(
      `select case when status = 'verified' then 'verified_stale' else status end as status, count(*)::int as count from x402_payment
       where ${unsettledWhere(config)} group by 1`,
    );
    return { pendingHolds: holds!.count, oldestHoldSeconds: holds!.oldest, unsettledPayments: new Map(payments.map((row) => [row.status, row.count])) };
  });
}

/**
 * What the platform reports at GET /metrics, in Prometheus' text format: one registry per running
 * platform (tests run several in one process). Counters are bumped where things happen; the
 * ledger's state is read when scraped, through small indexes (pending holds, unsettled payments).
 */
export class PlatformMetrics {
  readonly registry = new Registry();
  readonly httpRequests = new Histogram({
    name: 'acp_http_request_duration_seconds',
    help: 'Requests, by surface (graphql, publishers, rest) and status class (cut_short: the answer did not complete), with their duration',
    labelNames: ['surface', 'status_class'] as const,
    buckets: SECONDS_BUCKETS,
    registers: [this.registry],
  });
  private readonly paidCalls = new Counter({
    name: 'acp_paid_calls_total',
    help: 'Proxied calls that reached the upstream, by how they ended for the money',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  private readonly chargedMicros = new Counter({
    name: 'acp_charged_microdollars_total',
    help: 'Micro-dollars charged to wallets for proxied calls (price plus fee, before refunds)',
    registers: [this.registry],
  });
  private readonly refunds = new Counter({
    name: 'acp_paid_call_refunds_total',
    help: 'Charged calls refunded whole because the upstream broke off the answer (also counted as charged)',
    registers: [this.registry],
  });
  private readonly refundedMicros = new Counter({
    name: 'acp_refunded_microdollars_total',
    help: 'Micro-dollars given back for broken-off answers',
    registers: [this.registry],
  });
  private readonly collectErrors = new Counter({
    name: 'acp_metrics_collect_errors_total',
    help: 'Scrape-time reads that failed or timed out (their gauges then read NaN; counters keep their last value)',
    labelNames: ['gauge'] as const,
    registers: [this.registry],
  });
  readonly upstreamFailures = new Counter({
    name: 'acp_upstream_failures_total',
    help: 'Proxied calls that got no answer from the upstream, by error code (upstream_timeout, upstream_unreachable, upstream_address_blocked, ...)',
    labelNames: ['code'] as const,
    registers: [this.registry],
  });
  readonly upstreamResponse = new Histogram({
    name: 'acp_upstream_response_seconds',
    help: 'Time from sending a proxied call to the upstream until its response headers',
    buckets: SECONDS_BUCKETS,
    registers: [this.registry],
  });

  private readonly ledgerSteps = new Histogram({
    name: 'acp_paid_call_ledger_seconds',
    help: 'How long paid calls waited on the ledger, by step: hold (before anything is forwarded) and post (the charge, before the answer goes out). With acp_upstream_response_seconds, where a paid call spends its time',
    labelNames: ['step'] as const,
    buckets: SECONDS_BUCKETS,
    registers: [this.registry],
  });

  constructor(em: () => EntityManager, log: Logger, config: Config) {
    // The process figures run monitors (event-loop delay, GC): only where someone can scrape them.
    if (config.metricsToken) collectDefaultMetrics({ register: this.registry, prefix: 'acp_' });
    const readBatchStats = () => this.readForScrape('acp_ledger_batched_items_total', () => ledgerBatchStats(em()), log);
    // One read of the ledger's state for the three gauges of a scrape (their collects start
    // together), and for any scrape arriving while it runs: scrapes hold at most one connection.
    let reading: Promise<LedgerState> | null = null;
    const readLedgerState = (gauge: string) =>
      this.readForScrape(gauge, () => (reading ??= ledgerState(em(), config).finally(() => (reading = null))), log);
    const ledgerGauge = (name: string, help: string, valueOf: (state: LedgerState) => number) =>
      new Gauge({
        name,
        help,
        registers: [this.registry],
        async collect() {
          const state = await readLedgerState(name);
          this.set(state ? valueOf(state) : NaN);
        },
      });
    ledgerGauge('acp_ledger_pending_holds', 'Call holds not yet posted or voided', (state) => state.pendingHolds);
    ledgerGauge(
      'acp_ledger_oldest_pending_hold_seconds',
      'Age of the oldest pending hold (an orphan sweep releases holds older than PROXY_HOLD_EXPIRY_SECONDS)',
      (state) => state.oldestHoldSeconds,
    );
    new Gauge({
      name: 'acp_x402_unsettled_payments',
      help: 'On-chain payments not yet in the ledger: settled_unbooked (the sweep books them), settle_unknown and verified_stale (a crash left it between settling and booking): an operator must check those',
      labelNames: ['status'] as const,
      registers: [this.registry],
      async collect() {
        const state = await readLedgerState('acp_x402_unsettled_payments');
        for (const status of ['settled_unbooked', 'settle_unknown', 'verified_stale']) this.set({ status }, state ? (state.unsettledPayments.get(status) ?? 0) : NaN);
      },
    });
    new Counter({
      name: 'acp_ledger_batched_items_total',
      help: 'Holds and posts this process sent, by statement and how: in a batch, alone, or handed back after a batch left them out',
      labelNames: ['statement', 'how'] as const,
      registers: [this.registry],
      // The batchers keep the totals; a failed read leaves the last ones (a counter never reads NaN).
      async collect() {
        const stats = await readBatchStats();
        if (!stats) return;
        this.reset();
        for (const [statement, counts] of [['reserve', stats.reserves], ['post', stats.posts]] as const) {
          this.inc({ statement, how: 'batched' }, counts.settled);
          this.inc({ statement, how: 'alone' }, counts.alone);
          this.inc({ statement, how: 'handed_back' }, counts.handedBack);
        }
      },
    });
  }

  /**
   * A read for a scrape, waited for 3 s at most (the read itself goes on; the ledger's is never
   * started twice at once, so a busy pool does not make scrapes pile up in front of paid calls).
   * Null when it failed or was late: the gauge then reads NaN, never a reassuring 0, and the
   * failure is counted.
   */
  private async readForScrape<T>(gauge: string, read: () => Promise<T>, log: Logger): Promise<T | null> {
    const reading = Promise.resolve().then(read);
    try {
      if (!(await settledWithin(reading, SCRAPE_DEADLINE_MS))) throw new Error('scrape read took longer than 3 s');
      return await reading;
    } catch (error) {
      this.collectErrors.inc({ gauge });
      log.warn({ err: error, gauge }, 'metrics: a gauge could not be read');
      return null;
    }
  }

  /** Runs a paid call's hold or post, timing it whether it succeeds or is refused. */
  async timeLedgerStep<T>(step: 'hold' | 'post', work: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.ledgerSteps.observe({ step }, (performance.now() - started) / 1000);
    }
  }

  countPaidCall(outcome: PaidCallOutcome): void {
    this.paidCalls.inc({ outcome });
  }

  /** A call charged from a wallet (or prepaid credits), with what it cost. */
  countCharge(amount: bigint): void {
    this.countPaidCall('charged');
    this.chargedMicros.inc(Number(amount));
  }

  /** A call that ended without a charge: its hold released, or nothing was held. */
  countUncharged(held: boolean): void {
    this.countPaidCall(held ? 'released' : 'free');
  }

  /** A charged call whose answer broke off, given back whole. */
  countRefund(amount: bigint): void {
    this.refunds.inc();
    this.refundedMicros.inc(Number(amount));
  }
}
