import { afterEach, describe, expect, it } from '@jest/globals';
import { createServer } from 'node:net';
import { createMemoryCache, createRedisCache, forgivingCache, type TtlCache } from '../../shared/cache.js';
import type { Logger } from '../../shared/logger.js';

/** A port nothing listens on: a Redis there refuses every connection. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function recordingLogger(): { log: Logger; warnings: unknown[] } {
  const warnings: unknown[] = [];
  const log = { warn: (fields: unknown) => void warnings.push(fields) } as unknown as Logger;
  return { log, warnings };
}

describe('the TTL cache', () => {
  const opened: TtlCache[] = [];
  afterEach(async () => {
    for (const cache of opened.splice(0)) await cache.close();
    // ioredis leaves its disconnectTimeout (300 ms) running after closing a client that never connected.
    await new Promise((resolve) => setTimeout(resolve, 400));
  });

  it('keeps a value until its time is up, and forgets it when deleted', async () => {
    const cache = createMemoryCache();
    await cache.set('short', 'a', 0.05);
    await cache.set('long', 'b', 60);
    expect(await cache.get('short')).toBe('a');
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(await cache.get('short')).toBeNull();
    expect(await cache.get('long')).toBe('b');
    await cache.delete('long');
    expect(await cache.get('long')).toBeNull();
  });

  it('drops its oldest entry rather than grow past its size', async () => {
    const cache = createMemoryCache(2);
    await cache.set('a', '1', 60);
    await cache.set('b', '2', 60);
    await cache.set('c', '3', 60);
    expect([await cache.get('a'), await cache.get('b'), await cache.get('c')]).toEqual([null, '2', '3']);
  });

  it('works on without a Redis that refuses connections: reads miss, writes are skipped, each kind of failure logged once', async () => {
    const failing = createRedisCache(`redis://127.0.0.1:${await closedPort()}`);
    const { log, warnings } = recordingLogger();
    const cache = forgivingCache(failing, log);
    opened.push(cache);
    await expect(failing.get('key')).rejects.toThrow();
    expect(await cache.get('key')).toBeNull();
    await expect(cache.set('key', 'value', 60)).resolves.toBeUndefined();
    await expect(cache.delete('key')).resolves.toBeUndefined();
    // A cache that is down fails every request: it says so once per operation, not on each.
    expect(await cache.get('other')).toBeNull();
    expect(warnings.map((fields) => (fields as { operation: string }).operation)).toEqual(['get', 'set', 'delete']);
  }, 20_000);

  it('passes everything through while the cache works', async () => {
    const { log, warnings } = recordingLogger();
    const cache = forgivingCache(createMemoryCache(), log);
    await cache.set('key', 'value', 60);
    expect(await cache.get('key')).toBe('value');
    await cache.delete('key');
    expect(await cache.get('key')).toBeNull();
    expect(warnings).toEqual([]);
  });
});
