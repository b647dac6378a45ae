import type { MikroORM } from '@mikro-orm/postgresql';
import type { Config } from './config.js';
import type { ChangeNotices } from './db/change-notices.js';
import type { TtlCache } from './cache.js';
import type { EventBus } from './events.js';
import type { UpstreamClient } from './http/upstream-client.js';
import type { Logger } from './logger.js';
import type { Mailer } from './mail.js';
import type { PlatformMetrics } from './metrics.js';
import type { BackgroundWork } from './background-work.js';
import type { PlatformPorts } from './ports.js';
import type { RateLimiter } from './rate-limit.js';

/** Process-wide singletons handed to every subgraph: built once at start, closed once at stop. */
export interface PlatformServices {
  config: Config;
  orm: MikroORM;
  log: Logger;
  mailer: Mailer;
  rateLimiter: RateLimiter;
  events: EventBus;
  ports: PlatformPorts;
  /** The one client for publisher-chosen URLs (SSRF-guarded, pooled per origin). */
  upstream: UpstreamClient;
  /** Changes other processes announced, for the caches this process keeps (see announceChange). */
  changes: ChangeNotices;
  /** Short-lived shared values (exchanged upstream tokens): memory, or Redis when configured. */
  cache: TtlCache;
  /** Counters and gauges served at GET /metrics. */
  metrics: PlatformMetrics;
  /** Work that outlives its request (a refund after the caller's connection was cut); waited for at stop. */
  background: BackgroundWork;
  /** Work to finish before the process stops (flushing buffered counters, closing pools). */
  onShutdown(hook: () => Promise<void>): void;
}
