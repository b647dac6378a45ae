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
