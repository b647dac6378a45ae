import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { everyMinute, settledWithin } from '../../shared/timing.js';

describe('settledWithin', () => {
  it('says whether the promise settled in time, a rejection counting as settled', async () => {
    expect(await settledWithin(Promise.resolve('done'), 1000)).toBe(true);
    expect(await settledWithin(Promise.reject(new Error('failed')), 1000)).toBe(true);
    expect(await settledWithin(new Promise(() => undefined), 20)).toBe(false);
  });

  it('leaves no timer behind once the promise settled', async () => {
    jest.useFakeTimers();
    try {
      await settledWithin(Promise.resolve(), 60_000);
      expect(jest.getTimerCount()).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });
});

/** A piece of work whose runs end only when the test says so. */
function controlledWork() {
  const runs: { finish(): void }[] = [];
  const work = () => new Promise<void>((resolve) => runs.push({ finish: resolve }));
  return { runs, work };
}

describe('everyMinute', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('runs the work every minute, never twice at once', async () => {
    const { runs, work } = controlledWork();
    const stop = everyMinute(work, () => undefined);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(runs).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(120_000);
    expect(runs).toHaveLength(1);
    runs[0]!.finish();
    await jest.advanceTimersByTimeAsync(60_000);
    expect(runs).toHaveLength(2);
    runs[1]!.finish();
    await stop();
  });

  it('hands a failed run to onError and goes on', async () => {
    const errors: unknown[] = [];
    let calls = 0;
    const stop = everyMinute(async () => {
      calls += 1;
      throw new Error('sweep failed');
    }, (error) => errors.push(error));
    await jest.advanceTimersByTimeAsync(120_000);
    expect([calls, errors.length]).toEqual([2, 2]);
    await stop();
  });

  it('stops: no run after it, and it waits for the run in progress', async () => {
    const { runs, work } = controlledWork();
    const stop = everyMinute(work, () => undefined);
    await jest.advanceTimersByTimeAsync(60_000);
    let stopped = false;
    const stopping = stop().then(() => (stopped = true));
    await jest.advanceTimersByTimeAsync(600_000);
    expect([stopped, runs.length]).toEqual([false, 1]);
    runs[0]!.finish();
    await stopping;
    expect(stopped).toBe(true);
  });

  it('stops after waiting `waitMs` at most for a run that does not end', async () => {
    const { runs, work } = controlledWork();
    const stop = everyMinute(work, () => undefined);
    await jest.advanceTimersByTimeAsync(60_000);
    let stopped = false;
    const stopping = stop(5000).then(() => (stopped = true));
    await jest.advanceTimersByTimeAsync(4999);
    expect(stopped).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    await stopping;
    expect([stopped, runs.length]).toEqual([true, 1]);
  });
});
