import { sampleOf } from '../support/metrics-text.js';
import type { Measurement } from './measure.js';

/** The sum and count of one Prometheus histogram series in a scrape (0 when absent). */
function histogram(text: string, name: string, labels = ''): { sum: number; count: number } {
  const value = (suffix: string) => sampleOf(text, `${name}_${suffix}${labels}`) ?? 0;
  return { sum: value('sum'), count: value('count') };
}

/** Mean milliseconds per observation of a series between two scrapes. */
function meanMsBetween(before: string, after: string, name: string, labels = ''): number {
  const [start, end] = [histogram(before, name, labels), histogram(after, name, labels)];
  const count = end.count - start.count;
  return count === 0 ? 0 : Math.round(((end.sum - start.sum) / count) * 1000 * 100) / 100;
}

/** prom-client samples the event loop with a 10 ms timer, and its lag figures include that interval. */
const LOOP_SAMPLING_MS = 10;

/** How late the event loop ran a timer, at a percentile, from a scrape: the lag gauge less the sampling interval. */
function loopDelayMs(text: string, percentile: 'p50' | 'p99'): number {
  const lag = sampleOf(text, `acp_nodejs_eventloop_lag_${percentile}_seconds`);
  return lag === undefined ? NaN : Math.round((lag * 1000 - LOOP_SAMPLING_MS) * 100) / 100;
}

/**
 * Where a paid call's round trip went during a measurement, from the platform's own timers: the
 * wait for its hold, for the upstream's response headers and for its post; the rest is the front
 * door, the answer's relay and the load generator's own side. The event loop's delay (p50, p99),
 * measured since the scrape before, tells how much of each wait was the process itself being busy
 * rather than the database or the upstream.
 */
export function paidCallSplit(before: string, after: string, measured: Measurement): Record<string, number> {
  const hold = meanMsBetween(before, after, 'acp_paid_call_ledger_seconds', '{step="hold"}');
  const upstream = meanMsBetween(before, after, 'acp_upstream_response_seconds');
  const post = meanMsBetween(before, after, 'acp_paid_call_ledger_seconds', '{step="post"}');
  const rest = Math.round((measured.meanMs - hold - upstream - post) * 100) / 100;
  return {
    'hold ms': hold,
    'upstream ms': upstream,
    'post ms': post,
    'rest ms': rest,
    'loop delay p50 ms': loopDelayMs(after, 'p50'),
    'loop delay p99 ms': loopDelayMs(after, 'p99'),
  };
}
