import { Redis } from 'ioredis';
import { closeRedis, REDIS_CLIENT_OPTIONS } from './redis.js';
import { AppError } from './errors.js';

export interface RateLimitResult {
  allowed: boolean;
  retryAfterSeconds: number;
}

/** Fixed-window counters: in memory for one process, Redis when REDIS_URL is set (shared by replicas). */
export interface RateLimiter {
  consume(key: string, limit: number, windowSeconds: number): Promise<RateLimitResult>;
  close(): Promise<void>;
}

export function createMemoryRateLimiter(): RateLimiter {
  const windows = new Map<string, { count: number; resetAt: number }>();
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [key, window] of windows) if (window.resetAt <= now) windows.delete(key);
  }, 60_000);
  sweep.unref();
  return {
    async consume(key, limit, windowSeconds) {
      const now = Date.now();
      let window = windows.get(key);
      if (!window || window.resetAt <= now) {
        window = { count: 0, resetAt: now + windowSeconds * 1000 };
        windows.set(key, window);
      }
      window.count += 1;
      const allowed = window.count <= limit;
      return { allowed, retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((window.resetAt - now) / 1000)) };
    },
    async close() {
      clearInterval(sweep);
    },
  };
}

const CONSUME_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return { count, redis.call('PTTL', KEYS[1]) }`;

export function createRedisRateLimiter(url: string): RateLimiter {
  const redis = new Redis(url, REDIS_CLIENT_OPTIONS);
  // Connection errors surface on each command (a 503 below); the client's own event would only print them.
  redis.on('error', () => undefined);
  return {
    async consume(key, limit, windowSeconds) {
      let counted: [number, number];
      try {
        counted = (await redis.eval(CONSUME_SCRIPT, 1, `ratelimit:${key}`, windowSeconds * 1000)) as [number, number];
      } catch {
        // Limits guard logins and publishers: without the shared counter nothing passes, but clearly.
        throw new AppError(503, 'rate_limiter_unavailable', 'Request limits cannot be checked right now; retry shortly');
      }
      const [count, ttl] = counted;
      const allowed = count <= limit;
      return { allowed, retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil(ttl / 1000)) };
    },
    async close() {
      await closeRedis(redis);
    },
  };
}

export function createRateLimiter(redisUrl?: string): RateLimiter {
  return redisUrl ? createRedisRateLimiter(redisUrl) : createMemoryRateLimiter();
}
