import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { readCatalogue, seedCatalogue } from '../../subgraphs/marketplace/seed/seed-catalogue.js';

let t: TestPlatform;
beforeAll(async () => {
  t = await startTestPlatform();
});
afterAll(() => t.close());

describe('the starter catalogue', () => {
  it('is not loaded in tests unless asked', async () => {
    expect((await t.api.get('/publishers')).body.data).toEqual([]);
  });

  it('loads every data file once, listed active and unverified', async () => {
    const files = readCatalogue();
    expect(await seedCatalogue(t.platform.services)).toHaveLength(files.length);
    expect(await seedCatalogue(t.platform.services)).toEqual([]);
    const listed = (await t.api.get('/publishers')).body.data;
    expect(listed).toHaveLength(files.length);
    expect(listed.every((p: any) => p.is_active && !p.is_verified)).toBe(true);
    expect(listed.every((p: any) => p.usage_examples?.length > 0 && p.pricing.length > 0)).toBe(true);
  });

  it('has a SQL database publisher without endpoints, a user-OAuth e-mail publisher and a single POST / JSON-RPC endpoint', async () => {
    const bySlug = async (slug: string) => (await t.api.get(`/publishers/${slug}`)).body.data;
    expect(await bySlug('open-census-sql')).toMatchObject({ publisher_category: 'database', endpoints: null, pricing: [expect.objectContaining({ pricing_model: 'per_row' })] });
    expect(await bySlug('inboxer-mail')).toMatchObject({ requires_user_oauth: true });
    expect((await bySlug('blockrelay-base-rpc')).endpoints.map((e: any) => `${e.method} ${e.path}`)).toEqual(['POST /']);
  });

  it('shows every pricing field in use somewhere', async () => {
    const pricing = (await t.api.get('/publishers')).body.data.flatMap((p: any) => p.pricing);
    const used = (field: string) => pricing.some((row: any) => row[field] !== null && row[field] !== '0.00' && row[field] !== false);
    for (const field of ['price_per_call', 'price_per_get', 'price_per_post', 'price_per_put', 'price_per_patch', 'price_per_execution',
      'base_price_per_1000_rows', 'min_charge', 'unresolved_fallback_charge', 'reserve_max_charge', 'hourly_rate', 'minimum_balance',
      'low_balance_threshold', 'grace_period_minutes', 'max_queries_per_minute', 'min_display_price', 'pricing_display_text', 'onchain_enabled']) {
      expect([field, used(field)]).toEqual([field, true]);
    }
    expect(pricing.some((row: any) => row.markup_multiplier !== '1.00')).toBe(true);
    expect(pricing.some((row: any) => row.price_per_delete === '0.00')).toBe(true);
  });
});

describe('seeding at start', () => {
  it('loads the catalogue when a development platform starts on an empty marketplace, unless SEED_CATALOGUE=false', async () => {
    const seeded = await startTestPlatform({ NODE_ENV: 'development', SEED_CATALOGUE: 'true' });
    const plain = await startTestPlatform({ NODE_ENV: 'development' });
    try {
      expect((await seeded.api.get('/publishers')).body.data).toHaveLength(readCatalogue().length);
      expect((await plain.api.get('/publishers')).body.data).toEqual([]);
    } finally {
      await Promise.all([seeded.close(), plain.close()]);
    }
  });
});
