import { Redis } from 'ioredis';
import pg from 'pg';
import { ConfigError } from '../config.js';
import { closeRedis, REDIS_CLIENT_OPTIONS } from '../redis.js';
import { SpentGatewayTokens, type SpentTokens } from './internal-token.js';

/** Set-if-absent until the token's own expiry: the first replica to see a token spends it for all. */
export class RedisSpentTokens implements SpentTokens {
  private readonly redis: Redis;

  constructor(url: string) {
    this.redis = new Redis(url, REDIS_CLIENT_OPTIONS);
  }

  async spend(id: string, expiresAt: number): Promise<boolean> {
    // An expiry already past still needs a key that lives a moment (EXAT in the past is refused).
    const at = Math.max(Math.ceil(expiresAt), Math.ceil(Date.now() / 1000) + 1);
    return (await this.redis.set(`spent-gateway-token:${id}`, '1', 'EXAT', at, 'NX')) === 'OK';
  }

  close(): Promise<void> {
    return closeRedis(this.redis);
  }
}

/** Spent port tokens at the gateway (any number of replicas: shared in Redis when set). */
export const gatewaySpentTokens = (redisUrl: string | undefined): SpentTokens => (redisUrl ? new RedisSpentTokens(redisUrl) : new SpentGatewayTokens());

/** Arbitrary constant (beside the migration lock's): the first half of every "one process of this subgraph" lock. */
const REPLICA_LOCK_KEY = 724_311_902;

/**
 * Without Redis, each process keeps its own record of spent tokens, so a token replayed to another
 * replica of the same subgraph would be accepted: the process holds a session lock named after its
 * subgraph for as long as it runs (on its own connection, released by the server when the process
 * dies however it dies), and a second process of that subgraph on the same database is refused.
 */
export async function openSpentTokens(subgraph: string, redisUrl: string | undefined, databaseUrl: string): Promise<SpentTokens> {
  if (redisUrl) return new RedisSpentTokens(redisUrl);
  const lock = new pg.Client({ connectionString: databaseUrl, application_name: `acp-${subgraph}-replica-lock` });
  await lock.connect();
  const { rows } = await lock.query('select pg_try_advisory_lock($1, hashtext($2)) as held', [REPLICA_LOCK_KEY, subgraph]);
  if (!rows[0]?.held) {
    await lock.end();
    throw new ConfigError(
      `Another ${subgraph} subgraph process already runs on this database and REDIS_URL is not set: replicas of one subgraph must share their record of spent gateway tokens (set REDIS_URL), or a token replayed to another replica would run its operation twice`,
    );
  }
  lock.on('error', () => undefined);
  const spent = new SpentGatewayTokens();
  return {
    spend: (id, expiresAt) => spent.spend(id, expiresAt),
    close: async () => void (await lock.end().catch(() => undefined)),
  };
}
