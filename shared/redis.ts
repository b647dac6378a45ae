import type { Redis, RedisOptions } from 'ioredis';

/**
 * Redis is an optimisation or a shared counter on the request path: when it does not answer, a
 * request learns so within about two seconds (a connect attempt of a second, one retry, and a
 * command that gets no reply within 1.5 s fails), not after ioredis's 10 s per attempt, or never.
 */
export const REDIS_CLIENT_OPTIONS: RedisOptions = {
  connectTimeout: 1000,
  commandTimeout: 1500,
  maxRetriesPerRequest: 1,
  // No INFO round trip before the first command (one command fewer to time out against a Redis that
  // never answers; a Redis still loading answers LOADING, which callers treat like any failure).
  enableReadyCheck: false,
  // How long a closing client waits for its socket to close; ioredis leaves this timer running even
  // when the socket is long gone, so a shorter wait lets a stopping process exit sooner.
  disconnectTimeout: 300,
};

/** Ends a Redis client: politely when connected, at once when not (QUIT would wait for a reconnect that may never come), never with an error. */
export async function closeRedis(redis: Redis): Promise<void> {
  if (redis.status !== 'ready') return void redis.disconnect();
  // A Redis that stopped answering times QUIT out too: a stopping platform must still stop.
  await redis.quit().catch(() => redis.disconnect());
}
