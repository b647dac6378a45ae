import type { EntityManager } from '@mikro-orm/postgresql';
import type { PlatformServices } from '../../../shared/services.js';
import { UsageCounters } from './usage-counters.js';

const countersByServices = new WeakMap<PlatformServices, UsageCounters>();

/** One counter buffer per running platform, flushed at shutdown. */
export function usageCountersOf(services: PlatformServices): UsageCounters {
  let counters = countersByServices.get(services);
  if (!counters) {
    const created = new UsageCounters(() => services.orm.em.fork() as EntityManager, services.log);
    services.onShutdown(() => created.drain());
    countersByServices.set(services, (counters = created));
  }
  return counters;
}
