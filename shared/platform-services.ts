import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from './config.js';
import { createOrm } from './db/orm.js';
import { migrateWithLock } from './db/migrate-locked.js';
import { ChangeNotices } from './db/change-notices.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './db/embedded-postgres.js';
import { createCache } from './cache.js';
import { EventBus } from './events.js';
import { reportLedgerBatchFailures } from './ledger/index.js';
import { UpstreamClient } from './http/upstream-client.js';
import type { Logger } from './logger.js';
import { createMailer } from './mail.js';
import { PlatformMetrics } from './metrics.js';
import { BackgroundWork } from './background-work.js';
import { createRateLimiter } from './rate-limit.js';
import type { PlatformServices } from './services.js';
import type { SubgraphModule } from './subgraph.js';

export interface OpenedServices {
  services: PlatformServices;
  close(): Promise<void>;
}

/**
 * Database (embedded unless DATABASE_URL is set, migrated), mailer, rate limiter and event bus:
 * the same for the whole platform and for one subgraph served alone. Every given module is
 * connected (event subscriptions, ports), and its sweeps started unless `sweeps: false` (operator
 * commands).
 */
export async function openServices(config: Config, log: Logger, modules: SubgraphModule[], options: { sweeps?: boolean } = {}): Promise<OpenedServices> {
  let embedded: EmbeddedDatabase | undefined;
  let url = config.databaseUrl;
  if (!url) {
    embedded = await startEmbeddedPostgres(config.dataDir, log);
    url = embedded.url;
  }
  const orm = await createOrm(modules, { url, poolMax: config.dbPoolMax, poolAcquireTimeoutMs: config.dbPoolAcquireTimeoutMs });
  const applied = await migrateWithLock(orm, url);
  if (applied.length > 0) log.info({ applied }, 'migrations applied');
  await reportLedgerBatchFailures(orm.em as EntityManager, ({ statement, items, error, racingReplay }) =>
    racingReplay
      ? log.info({ statement, items }, 'ledger batch met a racing replay; its items ran one by one')
      : log.warn({ err: error, statement, items }, 'ledger batch statement failed; its items ran one by one'),
  );
  const changes = new ChangeNotices(url, log);
  await changes.start();
  const shutdownHooks: (() => Promise<void>)[] = [];
  const services: PlatformServices = {
    config,
    orm,
    log,
    mailer: createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, log, production: config.nodeEnv === 'production' }),
    rateLimiter: createRateLimiter(config.redisUrl),
    events: new EventBus(log),
    ports: {},
    upstream: new UpstreamClient({
      timeoutMs: config.proxy.timeoutMs,
      maxBufferedBytes: config.proxy.maxBufferedBytes,
      destinations: {
        allowPrivate: config.proxy.allowPrivateUpstreams,
        allowedOrigins: new Set(config.proxy.allowedUpstreamOrigins),
        // A developer's own API on this machine can be published without a setting; never in production or tests.
        allowLoopback: config.nodeEnv === 'development',
      },
    }),
    cache: createCache(config.redisUrl, log),
    metrics: new PlatformMetrics(() => orm.em.fork() as EntityManager, log, config),
    background: new BackgroundWork(),
    changes,
    onShutdown: (hook) => void shutdownHooks.push(hook),
  };
  for (const module of modules) await module.connect?.(services);
  if (options.sweeps !== false) for (const module of modules) module.startSweeps?.(services);
  return {
    services,
    async close() {
      if (!(await services.background.settled(config.shutdownGraceMs))) {
        log.error({ running: services.background.size }, 'work still running at stop (refunds among it are logged for a person when they fail)');
      }
      for (const hook of shutdownHooks.reverse()) await hook().catch((error) => log.error({ err: error }, 'shutdown hook failed'));
      await changes.close();
      await services.upstream.close();
      await services.cache.close();
      services.mailer.close();
      await services.rateLimiter.close();
      await orm.close(true);
      await embedded?.stop();
    },
  };
}
