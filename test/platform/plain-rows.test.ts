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

  it('filter, order and page as the entity manager does, and are not tracked', async () => {
    const em = fork();
    const query = { orderBy: { name: 'desc' as const, id: 'asc' as const }, limit: 3, offset: 1 };
    const plain = await findPlain(em, Publisher, { isActive: true }, query);
    const managed = await fork().find(Publisher, { isActive: true }, query);
    expect(plain.map((p) => p.slug)).toEqual(managed.map((p) => p.slug));
    expect(em.getUnitOfWork().getIdentityMap().values()).toHaveLength(0);
  });
});
