import { Redis } from 'ioredis';
import { closeRedis, REDIS_CLIENT_OPTIONS } from './redis.js';
import { AppError, tooManyRequests } from './errors.js';

export interface RateLimitResult {
  allowed: boolean;
  retryAfterSeconds: number;
}

/**
 * Sliding-window limits: in memory for one process, Redis when REDIS_URL is set (shared by
 * replicas). The rate is this window's count plus the previous window's, weighted by how much of
 * it still lies within the last `windowSeconds`, so a caller cannot pass twice the limit across a
 * window boundary as fixed windows allow. Refused requests are not counted: Retry-After holds.
 */
export interface RateLimiter {
  consume(key: string, limit: number, windowSeconds: number): Promise<RateLimitResult>;
  close(): Promise<void>;
}

/** Where a key stands in its current window: the counts of this window and the one before, and how far into this one we are. */
/** Spends one request of `limit` per window under `key`, or refuses it: 429 `rate_limited` with its Retry-After. */
export async function spendOrRefuse(limiter: RateLimiter, key: string, limit: number, windowSeconds: number): Promise<void> {
  const result = await limiter.consume(key, limit, windowSeconds);
  if (!result.allowed) throw tooManyRequests(result.retryAfterSeconds);
}

export interface WindowCounts {
  previous: number;
  current: number;
  elapsedMs: number;
  windowMs: number;
}

const rateOf = ({ previous, current, elapsedMs, windowMs }: WindowCounts) => previous * (1 - elapsedMs / windowMs) + current;

/**
 * Admitted while the rate is below the limit. (Asking for room for one more instead would make a
 * limit of 1 wait two windows: the previous window's request counts whole at the start of this one.)
 */
export const admits = (counts: WindowCounts, limit: number) => rateOf(counts) < limit;

/** How long until a refused request would be admitted, in whole seconds (at least 1). */
export function secondsUntilAdmitted({ previous, current, elapsedMs, windowMs }: WindowCounts, limit: number): number {
  if (!(limit > 0)) return Math.ceil(windowMs / 1000);
  let waitMs: number;
  if (current < limit && previous > 0) {
    // Within this window, once enough of the previous one has slid out.
    waitMs = (1 - (limit - current) / previous) * windowMs - elapsedMs;
  } else {
    // In the next window, once enough of this one has slid out.
    waitMs = windowMs - elapsedMs + Math.max(0, 1 - limit / current) * windowMs;
  }
  // Past the moment the rate equals the limit, not on it.
  return Math.max(1, Math.floor(waitMs / 1000) + 1);
}

const decide = (counts: WindowCounts, limit: number): RateLimitResult =>
  admits(counts, limit) ? { allowed: true, retryAfterSeconds: 0 } : { allowed: false, retryAfterSeconds: secondsUntilAdmitted(counts, limit) };

export function createMemoryRateLimiter(): RateLimiter {
  const windows = new Map<string, { index: number; previous: number; current: number; windowMs: number }>();
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [key, window] of windows) if ((window.index + 2) * window.windowMs <= now) windows.delete(key);
  }, 60_000);
  sweep.unref();
  return {
    async consume(key, limit, windowSeconds) {
      const now = Date.now();
      const windowMs = windowSeconds * 1000;
      const index = Math.floor(now / windowMs);
      let window = windows.get(key);
      if (!window || window.windowMs !== windowMs || window.index < index - 1) {
        window = { index, previous: 0, current: 0, windowMs };
        windows.set(key, window);
      } else if (window.index === index - 1) {
        Object.assign(window, { index, previous: window.current, current: 0 });
      }
      const result = decide({ previous: window.previous, current: window.current, elapsedMs: now - index * windowMs, windowMs }, limit);
      if (result.allowed) window.current += 1;
      return result;
    },
    async close() {
      clearInterval(sweep);
    },
  };
}

/**
 * One atomic step on Redis's own clock (one clock for every replica): counts the request when it
 * is admitted (the same rule as `admits`), and answers the counts it judged by. Both windows of a
 * key share one hash tag.
 */
const CONSUME_SCRIPT = `
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local windowMs = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local index = math.floor(now / windowMs)
local currentKey = KEYS[1] .. ':' .. string.format('%d', index)
local previous = tonumber(redis.call('GET', KEYS[1] .. ':' .. string.format('%d', index - 1)) or '0')
local current = tonumber(redis.call('GET', currentKey) or '0')
local elapsed = now - index * windowMs
local admitted = 0
if previous * (1 - elapsed / windowMs) + current < limit then
  redis.call('INCR', currentKey)
  redis.call('PEXPIRE', currentKey, windowMs * 2)
  admitted = 1
end
return { admitted, previous, current, elapsed }`;

export function createRedisRateLimiter(url: string): RateLimiter {
  const redis = new Redis(url, REDIS_CLIENT_OPTIONS);
  // Connection errors surface on each command (a 503 below); the client's own event would only print them.
  redis.on('error', () => undefined);
  return {
    async consume(key, limit, windowSeconds) {
      let answer: [number, number, number, number];
      const windowMs = windowSeconds * 1000;
      try {
        answer = (await redis.eval(CONSUME_SCRIPT, 1, `ratelimit:{${key}}:${windowMs}`, windowMs, limit)) as [number, number, number, number];
      } catch {
        // Limits guard logins and publishers: without the shared counter nothing passes, but clearly.
        throw new AppError(503, 'rate_limiter_unavailable', 'Request limits cannot be checked right now; retry shortly');
      }
      const [admitted, previous, current, elapsedMs] = answer;
      if (admitted === 1) return { allowed: true, retryAfterSeconds: 0 };
      return { allowed: false, retryAfterSeconds: secondsUntilAdmitted({ previous, current, elapsedMs, windowMs }, limit) };
    },
    async close() {
      await closeRedis(redis);
    },
  };
}

export function createRateLimiter(redisUrl?: string): RateLimiter {
  return redisUrl ? createRedisRateLimiter(redisUrl) : createMemoryRateLimiter();
}
