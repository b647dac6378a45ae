import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { EntityManager } from '@mikro-orm/postgresql';
import { findPlain } from '../../shared/db/plain-rows.js';
import { PublisherEndpoint } from '../../subgraphs/marketplace/entities/endpoint.js';
import { PublisherPricing } from '../../subgraphs/marketplace/entities/pricing.js';
import { Publisher } from '../../subgraphs/marketplace/entities/publisher.js';
import { seedCatalogue } from '../../subgraphs/marketplace/seed/seed-catalogue.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';

/**
 * Read-only listings read plain rows (shared/db/plain-rows.ts): every property must hold what the
 * entity manager would have put there, for every kind of column the catalogue uses (json, arrays,
 * 64-bit numbers and bigints, timestamps, nulls), getters included.
 */
let t: TestPlatform;
beforeAll(async () => {
  t = await startTestPlatform({ SEED_PUBLISHER_KEYS: 'openai-embeddings=key-1' });
  await seedCatalogue(t.platform.services);
});
afterAll(() => t.close());

const fork = () => t.platform.services.orm.em.fork() as EntityManager;
/** Every own and prototype-getter value, as an answer would read them. */
function valuesOf(record: object, names: string[]): Record<string, unknown> {
  return Object.fromEntries(names.map((name) => [name, (record as any)[name]]));
}

describe('plain rows', () => {
  it.each([
    ['publishers', Publisher, { deletedAt: null }, ['logoUrl', 'totalRevenueAtomic']],
    ['endpoints', PublisherEndpoint, {}, []],
    ['pricing', PublisherPricing, {}, []],
  ] as const)('hold the same %s values as managed entities, getters included', async (_label, entity: any, where: any, getters: readonly string[]) => {
    const managed = await fork().find(entity, where, { orderBy: { id: 'asc' } as any });
    const plain = await findPlain(fork(), entity, where, { orderBy: { id: 'asc' } as any });
    expect(managed.length).toBeGreaterThan(3);
    const names = [...t.platform.services.orm.getMetadata().get(entity).props.filter((prop) => prop.persist !== false).map((prop) => prop.name as string), ...getters];
    expect(plain.map((record) => valuesOf(record, names))).toEqual(managed.map((record) => valuesOf(record, names)));
    expect(plain.every((record) => record instanceof entity)).toBe(true);
  });

  it('read the same through the query builder: inside a transaction, or for a filter beyond equalities and lists', async () => {
    const names = t.platform.services.orm.getMetadata().get(Publisher).props.filter((prop) => prop.persist !== false).map((prop) => prop.name as string);
    const values = (records: Publisher[]) => records.map((record) => valuesOf(record, names));
    const direct = await findPlain(fork(), Publisher, { deletedAt: null }, { orderBy: { id: 'asc' } as any });
    const inTransaction = await fork().transactional((tx) => findPlain(tx, Publisher, { deletedAt: null }, { orderBy: { id: 'asc' } as any }));
    const ranged = await findPlain(fork(), Publisher, { totalQueries: { $gte: 0 }, deletedAt: null } as any, { orderBy: { id: 'asc' } as any });
    // A value the entity manager converts for the database (a 64-bit counter) is bound as it would bind it.
    const counted = await findPlain(fork(), Publisher, { totalQueries: 0, deletedAt: null }, { orderBy: { id: 'asc' } as any });
    expect(direct.length).toBeGreaterThan(3);
    expect(values(inTransaction)).toEqual(values(direct));
    expect(values(ranged)).toEqual(values(direct));
    expect(values(counted)).toEqual(values(direct));
  });

  it('find by lists, nulls and values as the entity manager does', async () => {
    const all = await fork().find(Publisher, {}, { orderBy: { id: 'asc' } });
    const ids = all.slice(0, 3).map((publisher) => publisher.id);
    const slugs = (records: Publisher[]) => records.map((record) => record.slug);
    expect(slugs(await findPlain(fork(), Publisher, { id: { $in: ids } }, { orderBy: { id: 'asc' } as any }))).toEqual(all.slice(0, 3).map((p) => p.slug));
    expect(await findPlain(fork(), Publisher, { id: { $in: [] } })).toEqual([]);
    expect((await findPlain(fork(), Publisher, { slug: all[1]!.slug, deletedAt: null })).map((p) => p.id)).toEqual([all[1]!.id]);
    expect(await findPlain(fork(), Publisher, { slug: 'no-such-slug' })).toEqual([]);
    const endpoints = await findPlain(fork(), PublisherEndpoint, { publisherId: { $in: ids } }, { orderBy: { publisherId: 'asc', position: 'asc' } as any });
    const managed = await fork().find(PublisherEndpoint, { publisherId: { $in: ids } }, { orderBy: { publisherId: 'asc', position: 'asc' } });
    expect(endpoints.map((endpoint) => endpoint.id)).toEqual(managed.map((endpoint) => endpoint.id));
  });

  it('filter, order and page as the entity manager does, and are not tracked', async () => {
    const em = fork();
    const query = { orderBy: { name: 'desc' as const, id: 'asc' as const }, limit: 3, offset: 1 };
    const plain = await findPlain(em, Publisher, { isActive: true }, query);
    const managed = await fork().find(Publisher, { isActive: true }, query);
    expect(plain.map((p) => p.slug)).toEqual(managed.map((p) => p.slug));
    expect(em.getUnitOfWork().getIdentityMap().values()).toHaveLength(0);
  });
});
