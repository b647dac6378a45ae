import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from './config.js';
import { createOrm } from './db/orm.js';
import { migrateWithLock } from './db/migrate-locked.js';
import { ChangeNotices } from './db/change-notices.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './db/embedded-postgres.js';
import { createCache } from './cache.js';
import { EventBus } from './events.js';
import { OutboxConsumer } from './outbox/consumer.js';
import { connectRemotePorts } from './remote-ports.js';
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
  /** The database in use (DATABASE_URL, or the embedded one's). */
  databaseUrl: string;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** Start the modules' sweeps and deliver their events (operator commands leave both off). */
  sweeps?: boolean;
  /** Every module of the platform, when only some run here (split mode): the others' ports are reached over HTTP. */
  platformModules?: readonly SubgraphModule[];
  /** The modules whose events this process delivers; by default those it runs that are not split off (SUBGRAPH_<NAME>_URL). */
  eventConsumers?: readonly string[];
}

/**
 * Database (embedded unless DATABASE_URL is set, migrated), mailer, rate limiter and event bus:
 * the same for the whole platform and for one subgraph served alone. Every given module is
 * connected (event subscriptions, ports), ports of modules running elsewhere are reached over
 * HTTP, and its sweeps and event deliveries started unless `sweeps: false` (operator commands).
 */
export async function openServices(config: Config, log: Logger, modules: SubgraphModule[], options: OpenOptions = {}): Promise<OpenedServices> {
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
  let outbox: OutboxConsumer | undefined;
  async function close() {
    if (!(await services.background.settled(config.shutdownGraceMs))) {
      log.error({ running: services.background.size }, 'work still running at stop (refunds among it are logged for a person when they fail)');
    }
    for (const hook of shutdownHooks.reverse()) await hook().catch((error) => log.error({ err: error }, 'shutdown hook failed'));
    await outbox?.close();
    await changes.close();
    await services.upstream.close();
    await services.cache.close();
    services.mailer.close();
    await services.rateLimiter.close();
    await orm.close(true);
    await embedded?.stop();
  }
  try {
    for (const module of modules) await services.events.connectModule(module.name, () => module.connect?.(services));
    connectRemotePorts(services, {
      hosted: modules.map((module) => module.name),
      known: (options.platformModules ?? modules).map((module) => module.name),
      urls: config.subgraphUrls,
    });
    const sweeps = options.sweeps !== false;
    const consumers = sweeps ? (options.eventConsumers ?? modules.map((module) => module.name).filter((name) => !config.subgraphUrls[name])) : [];
    outbox = new OutboxConsumer(orm, services.events, consumers, log);
    await outbox.start(changes);
    if (sweeps) for (const module of modules) module.startSweeps?.(services);
  } catch (error) {
    // A start that fails half-way still ends what it opened (the embedded database above all).
    await close().catch(() => undefined);
    throw error;
  }
  return { services, databaseUrl: url, close };
}
