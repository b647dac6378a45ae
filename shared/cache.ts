import { Redis } from 'ioredis';
import type { Logger } from './logger.js';
import { closeRedis, REDIS_CLIENT_OPTIONS } from './redis.js';

/** A small TTL cache of strings: in memory for one process, Redis when REDIS_URL is set (shared by replicas). */
export interface TtlCache {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
  delete(key: string): Promise<void>;
  close(): Promise<void>;
}

export function createMemoryCache(maxEntries = 10_000): TtlCache {
  const entries = new Map<string, { value: string; expiresAt: number }>();
  return {
    async get(key) {
      const entry = entries.get(key);
      if (!entry) return null;
      if (entry.expiresAt <= Date.now()) {
        entries.delete(key);
        return null;
      }
      return entry.value;
    },
    async set(key, value, ttlSeconds) {
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
      entries.set(key, { value, expiresAt: Date.now() + ttlSeconds * 1000 });
    },
    async delete(key) {
      entries.delete(key);
    },
    async close() {
      entries.clear();
    },
  };
}

export function createRedisCache(url: string, prefix = 'cache:'): TtlCache {
  const redis = new Redis(url, REDIS_CLIENT_OPTIONS);
  // Connection errors surface on each command (see forgivingCache).
  redis.on('error', () => undefined);
  return {
    get: (key) => redis.get(prefix + key),
    async set(key, value, ttlSeconds) {
      await redis.set(prefix + key, value, 'EX', Math.max(1, Math.floor(ttlSeconds)));
    },
    async delete(key) {
      await redis.del(prefix + key);
    },
    async close() {
      await closeRedis(redis);
    },
  };
}

/** A cache that is down fails every request: one warning per operation in this time says so. */
const WARN_AT_MOST_EVERY_MS = 10_000;

/**
 * A cache is an optimisation: when it fails, a read is a miss and a write or delete is skipped,
 * with a warning, so its callers work on without it (and cannot forget to handle it).
 */
export function forgivingCache(cache: TtlCache, log: Logger): TtlCache {
  const lastWarned = new Map<string, number>();
  const warn = (operation: string) => (error: unknown) => {
    const now = Date.now();
    if (now - (lastWarned.get(operation) ?? -Infinity) >= WARN_AT_MOST_EVERY_MS) {
      lastWarned.set(operation, now);
      log.warn({ err: error, operation }, 'cache unavailable; working on without it');
    }
    return null;
  };
  return {
    get: (key) => cache.get(key).catch(warn('get')),
    set: (key, value, ttlSeconds) => cache.set(key, value, ttlSeconds).then(undefined, warn('set')).then(() => undefined),
    delete: (key) => cache.delete(key).then(undefined, warn('delete')).then(() => undefined),
    close: () => cache.close(),
  };
}

export const createCache = (redisUrl: string | undefined, log: Logger): TtlCache =>
  forgivingCache(redisUrl ? createRedisCache(redisUrl) : createMemoryCache(), log);
