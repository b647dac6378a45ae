import type { Redis } from 'ioredis';

/** Ends a Redis client: politely when connected, at once when not (QUIT would wait for a reconnect that may never come). */
export async function closeRedis(redis: Redis): Promise<void> {
  if (redis.status === 'ready') await redis.quit();
  else redis.disconnect();
}
