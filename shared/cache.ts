import { Redis } from 'ioredis';
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
  // Connection errors surface on each command (callers treat a failing cache as a miss).
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

export const createCache = (redisUrl?: string): TtlCache => (redisUrl ? createRedisCache(redisUrl) : createMemoryCache());
