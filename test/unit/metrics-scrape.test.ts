import { describe, expect, it } from '@jest/globals';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../shared/config.js';
import { createLogger } from '../../shared/logger.js';
import { PlatformMetrics } from '../../shared/metrics.js';

const config = { proxy: { holdExpirySeconds: 600, timeoutMs: 30_000 } } as Config;
const sample = (text: string, series: string) => text.split('\n').find((line) => line.startsWith(`${series} `))?.slice(series.length + 1);

/** A database that refuses every read, or never answers (and has no connection for the ledger's pool). */
const failingDatabase = (read: () => Promise<never>) => () =>
  ({
    transactional: read,
    getConnection: () => {
      throw new Error('no connection');
    },
  }) as unknown as EntityManager;

describe('a scrape whose reads fail', () => {
  it.each([
    ['refuse', () => Promise.reject(new Error('connection refused'))],
    ['never answer', () => new Promise<never>(() => undefined)],
  ])('shows NaN, never a reassuring 0, and counts the failure, when the database reads %s', async (_label, read) => {
    const metrics = new PlatformMetrics(failingDatabase(read), createLogger('silent'), config);
    const text = await metrics.registry.metrics();
    expect(sample(text, 'acp_ledger_pending_holds')?.toLowerCase()).toBe('nan');
    expect(sample(text, 'acp_ledger_oldest_pending_hold_seconds')?.toLowerCase()).toBe('nan');
    expect(sample(text, 'acp_x402_unsettled_payments{status="settle_unknown"}')?.toLowerCase()).toBe('nan');
    // A counter is never NaN: with no total read yet, it has no series at all.
    expect(text).toContain('# TYPE acp_ledger_batched_items_total counter');
    expect(sample(text, 'acp_ledger_batched_items_total{statement="post",how="batched"}')).toBeUndefined();
    // Counters are read alongside the gauges, so a scrape's failures show from the next scrape on.
    const next = await metrics.registry.metrics();
    expect(Number(sample(next, 'acp_metrics_collect_errors_total{gauge="acp_ledger_pending_holds"}'))).toBeGreaterThanOrEqual(1);
    expect(Number(sample(next, 'acp_metrics_collect_errors_total{gauge="acp_ledger_batched_items_total"}'))).toBeGreaterThanOrEqual(1);
  }, 15_000);
});

/** A database whose ledger reads each wait for the test's go, recording the statements of each transaction. */
function heldDatabase() {
  const transactions: string[][] = [];
  let go!: () => void;
  const answered = new Promise<void>((resolve) => (go = resolve));
  const tx = (statements: string[]) => ({
    execute: async (sql: string) => {
      statements.push(sql);
      if (sql.includes('from ledger_transfer')) return [{ count: 2, oldest: 90 }];
      if (sql.includes('from x402_payment')) return [{ status: 'settle_unknown', count: 3 }];
      return [];
    },
  });
  const em = () =>
    ({
      transactional: async (work: (tx: unknown) => Promise<unknown>) => {
        transactions.push([]);
        await answered;
        return work(tx(transactions.at(-1)!));
      },
      getConnection: () => {
        throw new Error('no connection');
      },
    }) as unknown as EntityManager;
  return { em, transactions, go };
}

describe('a scrape’s ledger reads', () => {
  it('are one transaction for the three gauges, shared with a scrape arriving while it runs: scrapes hold one connection at most', async () => {
    const database = heldDatabase();
    const metrics = new PlatformMetrics(database.em, createLogger('silent'), config);
    const first = metrics.registry.metrics();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const second = metrics.registry.metrics();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(database.transactions).toHaveLength(1);
    database.go();
    for (const text of await Promise.all([first, second])) {
      expect(sample(text, 'acp_ledger_pending_holds')).toBe('2');
      expect(sample(text, 'acp_ledger_oldest_pending_hold_seconds')).toBe('90');
      expect(sample(text, 'acp_x402_unsettled_payments{status="settle_unknown"}')).toBe('3');
      expect(sample(text, 'acp_x402_unsettled_payments{status="verified_stale"}')).toBe('0');
    }
    expect(database.transactions).toHaveLength(1);
    expect(database.transactions[0]!.filter((sql) => sql.startsWith('select'))).toHaveLength(2);
    // Once it is over, the next scrape reads again.
    await metrics.registry.metrics();
    expect(database.transactions).toHaveLength(2);
  });
});
