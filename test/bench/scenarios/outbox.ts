import type { EntityManager } from '@mikro-orm/postgresql';
import { EventBus } from '../../../shared/events.js';
import { OutboxConsumer } from '../../../shared/outbox/consumer.js';
import type { PlatformServices } from '../../../shared/services.js';
import type { BenchRow, BenchScenario } from '../scenario.js';

const EVENTS = 2_000;
const PUBLISHERS = 16;
/** Consumers of the bench's module, as that many replicas (processes) of it would run. */
const REPLICAS = [1, 2];
const CONSUMER = 'bench-outbox';

const perSecond = (count: number, started: bigint) => Math.round(count / (Number(process.hrtime.bigint() - started) / 1e9));

/** Each event in its own transaction, from PUBLISHERS concurrent writers: what a busy platform's requests do. */
async function publish(services: PlatformServices, bus: EventBus, label: string): Promise<number> {
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: PUBLISHERS }, async () => {
      while (next < EVENTS) {
        const index = next++;
        await (services.orm.em.fork() as EntityManager).transactional((em) =>
          bus.publish('account.created', { userId: `${label}-${index}`, organizationId: label, kind: 'agent' }, em as EntityManager),
        );
      }
    }),
  );
  return perSecond(EVENTS, started);
}

async function pending(services: PlatformServices): Promise<number> {
  const [row] = await (services.orm.em.fork() as EntityManager).execute(`select count(*)::int as n from outbox_delivery where consumer = ?`, [CONSUMER]);
  return row.n;
}

async function drained(services: PlatformServices): Promise<void> {
  while ((await pending(services)) > 0) await new Promise((resolve) => setTimeout(resolve, 20));
}

/**
 * The event outbox: how many events a second it takes in (written with their cause's transaction),
 * and how many a second its consumers deliver (a handler that does nothing, so the figure is the
 * outbox's own cost: take with SKIP LOCKED, mark processed, drop, commit), by one consumer and by two.
 */
export const outboxScenario: BenchScenario = {
  name: 'outbox',
  async run({ services }) {
    const rows: BenchRow[] = [];
    const consuming = new EventBus(services.log);
    let handled = 0;
    await consuming.connectModule(CONSUMER, () => consuming.on('account.created', async () => void handled++));
    // Subscribes the module (deliveries are written for it from now on), then stops delivering, so a backlog builds.
    const subscriber = new OutboxConsumer(services.orm, consuming, [CONSUMER], services.log);
    await subscriber.start(services.changes);
    await subscriber.close();
    const writer = new EventBus(services.log);
    for (const replicas of REPLICAS) {
      const label = `backlog-${replicas}`;
      const written = await publish(services, writer, label);
      rows.push({ scenario: 'outbox', case: `publish (${PUBLISHERS} writers, 1 event per transaction)`, figures: { 'events/s': written } });
      handled = 0;
      const started = process.hrtime.bigint();
      const consumers = Array.from({ length: replicas }, () => new OutboxConsumer(services.orm, consuming, [CONSUMER], services.log));
      for (const consumer of consumers) await consumer.start(services.changes);
      await drained(services);
      rows.push({ scenario: 'outbox', case: `deliver a backlog of ${EVENTS} (${replicas} consumer${replicas > 1 ? 's' : ''})`, figures: { 'events/s': perSecond(EVENTS, started), handled } });
      // Live: delivered while written, each within moments of its commit.
      handled = 0;
      const live = process.hrtime.bigint();
      await publish(services, writer, `live-${replicas}`);
      await drained(services);
      rows.push({ scenario: 'outbox', case: `publish and deliver live (${replicas} consumer${replicas > 1 ? 's' : ''})`, figures: { 'events/s': perSecond(EVENTS, live), handled } });
      for (const consumer of consumers) await consumer.close();
    }
    return rows;
  },
};
