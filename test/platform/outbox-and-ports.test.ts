import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { EntityManager } from '@mikro-orm/postgresql';
import { EventBus } from '../../shared/events.js';
import { decodeJson, encodeJson } from '../../shared/json-codec.js';
import { OutboxConsumer } from '../../shared/outbox/consumer.js';
import { portOwners } from '../../shared/ports.js';
import { connectRemotePorts } from '../../shared/remote-ports.js';
import type { PlatformServices } from '../../shared/services.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';

let t: TestPlatform;
const consumers: OutboxConsumer[] = [];
beforeAll(async () => {
  t = await startTestPlatform();
  await t.platform.services.orm.em.fork().execute(`create table probe_effect (event_key text not null)`);
});
afterAll(async () => {
  for (const consumer of consumers) await consumer.close();
  await t.close();
});

const fork = () => t.platform.services.orm.em.fork() as EntityManager;
const effects = async (key: string) => (await fork().execute(`select count(*)::int as n from probe_effect where event_key like ?`, [key]))[0].n as number;

/**
 * A module `name` of this test, with `replicas` consumers (as processes running it would have); its
 * handler's effect is a row named after the module and the event's publisher id.
 */
async function probeModule(name: string, handle: (payload: any, em: EntityManager) => Promise<void>, replicas = 1) {
  const { services } = t.platform;
  const bus = new EventBus(services.log);
  const withEffect = async (payload: any, em: EntityManager) => {
    await em.execute(`insert into probe_effect values (?)`, [`${name}:${payload.publisherEarnings[0].publisherId}`]);
    await handle(payload, em);
  };
  await bus.connectModule(name, () => bus.on('x402.booked_late', withEffect));
  for (let replica = 0; replica < replicas; replica++) {
    const consumer = new OutboxConsumer(services.orm, bus, [name], services.log);
    consumers.push(consumer);
    await consumer.start(services.changes);
  }
  return bus;
}

async function eventually(check: () => Promise<boolean>): Promise<void> {
  for (let waited = 0; !(await check()) && waited < 30_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
}

describe('the event outbox', () => {
  it('an event is delivered after its cause commits, with its bigint amounts intact, and not at all when the cause rolls back', async () => {
    const seen: unknown[] = [];
    const bus = await probeModule('probe-a', async (payload) => {
      seen.push(payload);
    });
    await fork().transactional((em) => bus.publish('x402.booked_late', { publisherEarnings: [{ publisherId: 'kept', amount: 12_345_678_901_234_567n }] }, em as EntityManager));
    await expect(
      fork().transactional(async (em) => {
        await bus.publish('x402.booked_late', { publisherEarnings: [{ publisherId: 'rolled-back', amount: 1n }] }, em as EntityManager);
        throw new Error('the cause failed');
      }),
    ).rejects.toThrow('the cause failed');
    // Delivered before the publishing transaction returned: this process runs a consumer of the type.
    expect(seen).toEqual([{ publisherEarnings: [{ publisherId: 'kept', amount: 12_345_678_901_234_567n }] }]);
    expect(await effects('probe-a:kept')).toBe(1);
    expect(await effects('%:rolled-back')).toBe(0);
  });

  it('a handler that fails is rolled back and delivered again later, and its effect happens once', async () => {
    let calls = 0;
    const bus = await probeModule('probe-b', async () => {
      calls++;
      if (calls === 1) throw new Error('a passing failure');
    });
    await fork().transactional((em) => bus.publish('x402.booked_late', { publisherEarnings: [{ publisherId: 'retried', amount: 5n }] }, em as EntityManager));
    await eventually(async () => calls >= 2);
    // Two runs, one effect: the first run's write was rolled back with its failure.
    expect(await effects('probe-b:retried')).toBe(1);
    expect(calls).toBe(2);
  });

  it('replicas racing for many events run each handler once per event, and a delivery written again for a processed event runs nothing', async () => {
    let calls = 0;
    await probeModule('probe-c', async () => void calls++, 3);
    // Written outside any transaction of this process's consumers' knowledge: only the notices and polls deliver them.
    const writer = new EventBus(t.platform.services.log);
    await Promise.all(Array.from({ length: 40 }, (_, i) => fork().transactional((em) => writer.publish('x402.booked_late', { publisherEarnings: [{ publisherId: `race-${i}`, amount: 1n }] }, em as EntityManager))));
    await eventually(async () => (await fork().execute(`select count(*)::int as n from outbox_delivery where consumer = 'probe-c'`))[0].n === 0);
    // A handler may run again after a rollback (a deadlock retried): what counts is what committed.
    expect(await effects('probe-c:race-%')).toBe(40);
    const before = calls;
    const [{ event_id }] = await fork().execute(`select event_id from outbox_processed where consumer = 'probe-c' limit 1`);
    await fork().execute(`insert into outbox_delivery (event_id, consumer) values (?, 'probe-c')`, [event_id]);
    await eventually(async () => (await fork().execute(`select count(*)::int as n from outbox_delivery where consumer = 'probe-c'`))[0].n === 0);
    expect(calls).toBe(before);
    expect(await effects('probe-c:race-%')).toBe(40);
  });

  it('a handler is its module’s: one registered outside a module’s connect() is refused', () => {
    const bus = new EventBus(t.platform.services.log);
    expect(() => bus.on('account.created', async () => undefined)).toThrow(/must be called from a module's connect\(\)/);
  });
});

describe('ports across processes', () => {
  const services = (ports: PlatformServices['ports'] = {}) => ({ ...t.platform.services, ports }) as PlatformServices;
  /** Every port the marketplace answers, filled as its connect() would. */
  const marketplacePorts = () =>
    Object.fromEntries(Object.entries(portOwners).filter(([, owner]) => owner === 'marketplace').map(([name]) => [name, async () => null])) as PlatformServices['ports'];

  it('a port whose module runs in another process that no SUBGRAPH_<NAME>_URL names stops the start, naming the port and the setting', () => {
    expect(() => connectRemotePorts(services(), { hosted: ['wallet'], known: ['accounts', 'wallet', 'marketplace'], urls: { marketplace: 'http://127.0.0.1:9/graphql' } })).toThrow(
      /port rotateApiKey: answered by the accounts subgraph, which does not run in this process: set SUBGRAPH_ACCOUNTS_URL/,
    );
  });

  it('a module that runs here but did not fill its port stops the start; a port of a module this build lacks stays absent', () => {
    expect(() => connectRemotePorts(services(), { hosted: ['marketplace'], known: ['marketplace'], urls: {} })).toThrow(/port publisherPayee: module marketplace runs here but did not fill it/);
    const filled = services(marketplacePorts());
    connectRemotePorts(filled, { hosted: ['marketplace'], known: ['marketplace', 'accounts'], urls: { accounts: 'http://127.0.0.1:9/graphql' } });
    expect(typeof filled.ports.organizationRole).toBe('function');
    expect(filled.ports.hasPaymentMethod).toBeUndefined();
  });

  it('a port that cannot reach its module answers 503 port_unavailable, never a skipped check', async () => {
    const remote = services(marketplacePorts());
    connectRemotePorts(remote, { hosted: ['marketplace'], known: ['marketplace', 'accounts'], urls: { accounts: 'http://127.0.0.1:9/graphql' } });
    await expect(remote.ports.organizationRole!(fork(), 'u', 'o')).rejects.toMatchObject({ status: 503, code: 'port_unavailable' });
  });

  it('arguments and answers keep bigint and Date across processes', () => {
    const value = { amount: 123_456_789_012_345_678n, at: new Date('2026-11-25T10:00:00.000Z'), nested: [{ $bigint: 'x', other: 1 }], text: 'plain' };
    expect(decodeJson(encodeJson(value))).toEqual(value);
  });
});
