import type { MikroORM } from '@mikro-orm/postgresql';
import type { Config } from './config.js';
import type { EventBus } from './events.js';
import type { Logger } from './logger.js';
import type { Mailer } from './mail.js';
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
}
