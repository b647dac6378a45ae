import type { Redis, RedisOptions } from 'ioredis';

/**
 * Redis is an optimisation or a shared counter on the request path: when it does not answer, a
 * request learns so within about two seconds (one connect attempt of a second, one retry), not
 * after ioredis's default 10 s per attempt.
 */
export const REDIS_CLIENT_OPTIONS: RedisOptions = {
  connectTimeout: 1000,
  maxRetriesPerRequest: 1,
  // How long a closing client waits for its socket to close; ioredis leaves this timer running even
  // when the socket is long gone, so a shorter wait lets a stopping process exit sooner.
  disconnectTimeout: 300,
};

/** Ends a Redis client: politely when connected, at once when not (QUIT would wait for a reconnect that may never come). */
export async function closeRedis(redis: Redis): Promise<void> {
  if (redis.status === 'ready') await redis.quit();
  else redis.disconnect();
}
