import { describe, expect, it } from '@jest/globals';
import { StatementBatcher } from '../../shared/ledger/batcher.js';

/** A batch runner whose statements finish only when the test says so. */
function controlledRunner() {
  const sent: { items: number[]; finish(results: (string | null)[] | Error): void }[] = [];
  const run = (items: number[]) =>
    new Promise<(string | null)[]>((resolve, reject) => {
      sent.push({ items, finish: (results) => (results instanceof Error ? reject(results) : resolve(results)) });
    });
  return { sent, run };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('statement batcher', () => {
  it('a lone item runs alone at once; items arriving meanwhile go out together in the next statement', async () => {
    const { sent, run } = controlledRunner();
    const batcher = new StatementBatcher(run, { maxBatch: 10, maxInFlight: 1, stallMs: 10_000 });
    let releaseAlone!: () => void;
    const first = batcher.submit(0, () => new Promise((resolve) => (releaseAlone = () => resolve('alone-0'))));
    const rest = [1, 2, 3].map((item) => batcher.submit(item, async () => `alone-${item}`));
    await tick();
    expect(sent).toHaveLength(0);
    releaseAlone();
    expect(await first).toBe('alone-0');
    await tick();
    expect(sent.map((batch) => batch.items)).toEqual([[1, 2, 3]]);
    sent[0]!.finish(['batched-1', null, 'batched-3']);
    expect(await Promise.all(rest)).toEqual(['batched-1', 'alone-2', 'batched-3']);
    expect(batcher.stats).toMatchObject({ batches: 1, settled: 2, alone: 1, handedBack: 1, failedBatches: 0, largestBatch: 3 });
  });

  it('every item of a failed batch runs alone, and the failure is reported', async () => {
    const { sent, run } = controlledRunner();
    const failures: [string, number][] = [];
    const onFailure = (error: unknown, items: number) => void failures.push([(error as Error).message, items]);
    const batcher = new StatementBatcher(run, { maxBatch: 10, maxInFlight: 1, stallMs: 10_000, onFailure });
    let releaseAlone!: () => void;
    void batcher.submit(0, () => new Promise((resolve) => (releaseAlone = () => resolve('alone-0'))));
    const rest = [1, 2].map((item) => batcher.submit(item, async () => `alone-${item}`));
    releaseAlone();
    await tick();
    sent[0]!.finish(new Error('deadlock detected'));
    expect(await Promise.all(rest)).toEqual(['alone-1', 'alone-2']);
    expect(batcher.stats).toMatchObject({ failedBatches: 1, handedBack: 2 });
    expect(failures).toEqual([['deadlock detected', 2]]);
  });

  it('a statement stuck past stallMs lets the queued items go in the next one', async () => {
    const { sent, run } = controlledRunner();
    const batcher = new StatementBatcher(run, { maxBatch: 2, maxInFlight: 1, stallMs: 30 });
    void batcher.submit(0, () => new Promise(() => undefined)); // never finishes: a statement blocked on a lock
    const queued = [1, 2].map((item) => batcher.submit(item, async () => `alone-${item}`));
    await tick();
    expect(sent).toHaveLength(0);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(sent.map((batch) => batch.items)).toEqual([[1, 2]]);
    sent[0]!.finish(['batched-1', 'batched-2']);
    expect(await Promise.all(queued)).toEqual(['batched-1', 'batched-2']);
  });
});
