import { describe, expect, it } from '@jest/globals';
import { BackgroundWork } from '../../shared/background-work.js';

describe('background work', () => {
  it('is waited for until it settles, failures included, and forgotten then', async () => {
    const work = new BackgroundWork();
    let finish!: () => void;
    work.track(new Promise<void>((resolve) => (finish = resolve)));
    work.track(Promise.reject(new Error('refund failed'))).catch(() => undefined);
    expect(work.size).toBe(2);
    const settled = work.settled(5000);
    finish();
    expect(await settled).toBe(true);
    expect(work.size).toBe(0);
  });

  it('gives up waiting after the timeout and says so', async () => {
    const work = new BackgroundWork();
    work.track(new Promise(() => undefined));
    expect(await work.settled(20)).toBe(false);
    expect(work.size).toBe(1);
  });
});
