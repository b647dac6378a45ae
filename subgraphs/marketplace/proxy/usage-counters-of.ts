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

/**
 * An on-chain call payment booked after its call was answered (the x402 booking sweep) was counted
 * as a query then, without revenue: its revenue is added when it is booked, in the same transaction.
 */
export function countLateEarnings(services: PlatformServices): void {
  services.events.on('x402.booked_late', async ({ publisherEarnings }, em) => {
    for (const { publisherId, amount } of publisherEarnings) {
      await em.execute(`update market_publisher set total_revenue_atomic_value = total_revenue_atomic_value + ? where id = ?`, [amount.toString(), publisherId]);
    }
  });
}
