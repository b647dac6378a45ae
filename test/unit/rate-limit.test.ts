import { afterAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { Redis } from 'ioredis';
import { createMemoryRateLimiter, createRedisRateLimiter, type RateLimiter } from '../../shared/rate-limit.js';

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function redisAnswers(): Promise<boolean> {
  const probe = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

const limiters: RateLimiter[] = [];
afterAll(async () => {
  for (const limiter of limiters) await limiter.close();
});

async function behavesAsAFixedWindow(limiter: RateLimiter) {
  const key = `test:${randomUUID()}`;
  const results = [];
  for (let i = 0; i < 4; i++) results.push(await limiter.consume(key, 3, 60));
  expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
  expect(results[3]!.retryAfterSeconds).toBeGreaterThan(0);
  expect(results[3]!.retryAfterSeconds).toBeLessThanOrEqual(60);
  expect((await limiter.consume(`test:${randomUUID()}`, 3, 60)).allowed).toBe(true);
}

describe('rate limiters', () => {
  it('in memory: allows the limit per window, then says when to retry', async () => {
    const limiter = createMemoryRateLimiter();
    limiters.push(limiter);
    await behavesAsAFixedWindow(limiter);
  });

  it('in Redis: the same rule, shared by every process using the same Redis', async () => {
    if (!(await redisAnswers())) {
      console.warn(`Redis at ${redisUrl} does not answer: Redis rate limiter not exercised`);
      return;
    }
    const first = createRedisRateLimiter(redisUrl);
    const second = createRedisRateLimiter(redisUrl);
    limiters.push(first, second);
    await behavesAsAFixedWindow(first);
    const key = `test:${randomUUID()}`;
    expect((await first.consume(key, 1, 60)).allowed).toBe(true);
    expect((await second.consume(key, 1, 60)).allowed).toBe(false);
  });

  it.each([
    ['hangs up on every connection', (socket: Socket) => void socket.destroy()],
    ['accepts connections and never answers', (socket: Socket) => void socket.on('data', () => undefined)],
  ])('with a Redis that %s: a clear 503 rate_limiter_unavailable, not an internal error or a hung request', async (_label, behave) => {
    const sockets = new Set<Socket>();
    const broken = createServer((socket) => {
      sockets.add(socket);
      behave(socket);
    });
    await new Promise<void>((resolve) => broken.listen(0, '127.0.0.1', resolve));
    const limiter = createRedisRateLimiter(`redis://127.0.0.1:${(broken.address() as AddressInfo).port}`);
    const refusal = await limiter.consume('test:gone', 1, 60).then(() => null, (error) => error);
    expect(refusal).toMatchObject({ status: 503, code: 'rate_limiter_unavailable' });
    // By now the client may count as connected, and its QUIT gets no answer either: closing still ends quietly.
    await new Promise((resolve) => setTimeout(resolve, 600));
    await expect(limiter.close()).resolves.toBeUndefined();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => broken.close(resolve));
  });
});
