import { afterAll, describe, expect, it, jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { Redis } from 'ioredis';
import { admits, createMemoryRateLimiter, createRedisRateLimiter, secondsUntilAdmitted, type RateLimiter } from '../../shared/rate-limit.js';

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

async function allowsTheLimitThenRefuses(limiter: RateLimiter) {
  const key = `test:${randomUUID()}`;
  const results = [];
  for (let i = 0; i < 4; i++) results.push(await limiter.consume(key, 3, 60));
  expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
  expect(results[3]!.retryAfterSeconds).toBeGreaterThan(0);
  expect(results[3]!.retryAfterSeconds).toBeLessThanOrEqual(60);
  expect((await limiter.consume(`test:${randomUUID()}`, 3, 60)).allowed).toBe(true);
}

describe('sliding windows', () => {
  const minute = 60_000;
  const at = (previous: number, current: number, elapsedMs: number) => ({ previous, current, elapsedMs, windowMs: minute });

  it('count what is left of the previous window: a full window just before the boundary leaves room for one more, not for the limit again', () => {
    expect(admits(at(5, 0, 1), 5)).toBe(true);
    expect(admits(at(5, 1, 1), 5)).toBe(false);
    expect(admits(at(10, 4, minute / 2), 10)).toBe(true);
    expect(admits(at(10, 5, minute / 2), 10)).toBe(false);
    // A limit of 1 is not made stricter: the next window admits at once.
    expect(admits(at(1, 0, 1), 1)).toBe(true);
  });

  it('say when a refused request would be admitted', () => {
    // Half the previous window still counts (5), this one holds 5: a moment later the rate is below 10.
    expect(secondsUntilAdmitted(at(10, 5, minute / 2), 10)).toBe(1);
    // With 8 in this window, room comes once fewer than 2 of the previous window's 10 still count.
    expect(secondsUntilAdmitted(at(10, 8, 0), 10)).toBe(49);
    // This window is full: at the next one.
    expect(secondsUntilAdmitted(at(0, 3, 10_000), 3)).toBe(51);
    // A limit of nothing admits nothing: a whole window, never NaN.
    expect([admits(at(0, 0, 0), 0), secondsUntilAdmitted(at(0, 0, 0), 0), secondsUntilAdmitted(at(0, 0, 0), -1)]).toEqual([false, 60, 60]);
  });

  it('in memory: refused requests are not counted, so Retry-After holds', async () => {
    jest.useFakeTimers();
    try {
      const windowStart = Math.ceil(Date.now() / minute) * minute;
      jest.setSystemTime(windowStart);
      const limiter = createMemoryRateLimiter();
      limiters.push(limiter);
      for (let i = 0; i < 3; i++) expect((await limiter.consume('k', 3, 60)).allowed).toBe(true);
      jest.setSystemTime(windowStart + 59_000);
      let refused = await limiter.consume('k', 3, 60);
      for (let i = 0; i < 10; i++) refused = await limiter.consume('k', 3, 60);
      expect(refused).toEqual({ allowed: false, retryAfterSeconds: 2 });
      jest.setSystemTime(windowStart + 59_000 + 2_000);
      expect((await limiter.consume('k', 3, 60)).allowed).toBe(true);
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('rate limiters', () => {
  it('in memory: allows the limit per window, then says when to retry', async () => {
    const limiter = createMemoryRateLimiter();
    limiters.push(limiter);
    await allowsTheLimitThenRefuses(limiter);
  });

  it('in Redis: the same rule, shared by every process using the same Redis', async () => {
    if (!(await redisAnswers())) {
      console.warn(`Redis at ${redisUrl} does not answer: Redis rate limiter not exercised`);
      return;
    }
    const first = createRedisRateLimiter(redisUrl);
    const second = createRedisRateLimiter(redisUrl);
    limiters.push(first, second);
    await allowsTheLimitThenRefuses(first);
    const key = `test:${randomUUID()}`;
    expect((await first.consume(key, 1, 60)).allowed).toBe(true);
    expect((await second.consume(key, 1, 60)).allowed).toBe(false);
    // The previous window (on Redis's clock) still counts: a crowded one refuses requests in this one.
    const redis = new Redis(redisUrl);
    const crowded = `test:${randomUUID()}`;
    let [seconds] = await redis.time();
    // Not in a window's last seconds: the window must not turn between this line and the next request.
    if (Number(seconds) % 60 >= 58) [seconds] = await new Promise((resolve) => setTimeout(resolve, 2500)).then(() => redis.time());
    await redis.set(`ratelimit:{${crowded}}:60000:${Math.floor(Number(seconds) / 60) - 1}`, 1_000_000_000, 'PX', 120_000);
    redis.disconnect();
    expect(await first.consume(crowded, 5, 60)).toMatchObject({ allowed: false });
    // Refused requests are not counted: the window holds the one admitted.
    const knocking = `test:${randomUUID()}`;
    expect((await first.consume(knocking, 1, 60)).allowed).toBe(true);
    for (let i = 0; i < 5; i++) expect((await first.consume(knocking, 1, 60)).allowed).toBe(false);
    const counter = new Redis(redisUrl);
    const counted = await Promise.all((await counter.keys(`ratelimit:{${knocking}}:*`)).map((name) => counter.get(name)));
    counter.disconnect();
    expect(counted.map(Number).reduce((sum, count) => sum + count, 0)).toBe(1);
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
