import { describe, expect, it } from '@jest/globals';
import { BackgroundWork } from '../../shared/background-work.js';
import type { RequestContext } from '../../shared/context.js';
import { runAfterResponse } from '../../subgraphs/accounts/services/background.js';

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

  it('holds what a request runs after its answer (a reset e-mail): a stop waits for it, and a failure is logged', async () => {
    const background = new BackgroundWork();
    const logged: unknown[] = [];
    const context = { services: { orm: { em: { fork: () => ({}) } }, background }, log: { error: (entry: unknown) => logged.push(entry) } } as unknown as RequestContext;
    let finish!: () => void;
    runAfterResponse(context, 'forgot-password', () => new Promise<void>((resolve) => (finish = resolve)));
    runAfterResponse(context, 'resend-verification', async () => {
      throw new Error('smtp down');
    });
    expect(background.size).toBe(2);
    expect(await background.settled(50)).toBe(false);
    finish();
    expect(await background.settled(5000)).toBe(true);
    expect(logged).toEqual([expect.objectContaining({ task: 'resend-verification' })]);
  });
});
