import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { readdirSync, readFileSync } from 'node:fs';
import { pino } from 'pino';
import { readCatalogueEntries, seedCatalogue } from '../../subgraphs/marketplace/seed/seed-catalogue.js';

/** Every seed that can be configured, with a key: what an operator who set them all sees. */
const keyedSeeds = readCatalogueEntries().filter((entry) => entry.needs.apiKey);
const loadable = readCatalogueEntries().filter((entry) => !entry.needs.platform);
const allKeys = keyedSeeds.map((entry) => `${entry.input.slug}=key-of-${entry.input.slug}`).join(',');

let t: TestPlatform;
beforeAll(async () => {
  t = await startTestPlatform({ SEED_PUBLISHER_KEYS: allKeys, PUBLIC_URL: 'https://platform.test' });
});
afterAll(() => t.close());

describe('the starter catalogue', () => {
  it('is not loaded in tests unless asked', async () => {
    expect((await t.api.get('/publishers')).body.data).toEqual([]);
  });

  it('loads every seed whose needs are met once, listed active and unverified', async () => {
    expect(await seedCatalogue(t.platform.services)).toHaveLength(loadable.length);
    expect(await seedCatalogue(t.platform.services)).toEqual([]);
    const listed = (await t.api.get('/publishers')).body.data;
    expect(listed).toHaveLength(loadable.length);
    expect(listed.every((p: any) => p.is_active && !p.is_verified)).toBe(true);
    expect(listed.every((p: any) => p.usage_examples?.length > 0 && p.pricing.length > 0)).toBe(true);
  });

  it('has a SQL database publisher without endpoints and a single POST / JSON-RPC endpoint', async () => {
    const bySlug = async (slug: string) => (await t.api.get(`/publishers/${slug}`)).body.data;
    expect(await bySlug('open-census-sql')).toMatchObject({ publisher_category: 'database', endpoints: null, pricing: [expect.objectContaining({ pricing_model: 'per_row' })] });
    expect((await bySlug('base-sepolia-rpc')).endpoints.map((e: any) => `${e.method} ${e.path}`)).toEqual(['POST /']);
  });

  it('shows usage examples with the platform\'s own address, and keeps a configured key out of every answer', async () => {
    const listed = (await t.api.get('/publishers')).body.data;
    const curls = listed.flatMap((p: any) => p.usage_examples.map((e: any) => e.curl));
    expect(curls.every((curl: string) => curl.includes('https://platform.test/publishers/'))).toBe(true);
    expect(JSON.stringify(listed)).not.toContain('key-of-');
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

describe('a truthful catalogue', () => {
  it('carries no placeholder: no {base_url}, no .example host, no made-up payee address', () => {
    const folder = new URL('../../subgraphs/marketplace/seed/catalogue/', import.meta.url);
    for (const name of readdirSync(folder)) {
      const text = readFileSync(new URL(name, folder), 'utf8');
      expect([name, /\{base_url\}|\.example\b|<API_KEY>|walletAddress/.test(text)]).toEqual([name, false]);
    }
  });

  it('leaves out a seed that needs a key until its key is configured, and says in the log what it needs', async () => {
    const lines: any[] = [];
    const bare = await startTestPlatform({}, { log: pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) }) });
    try {
      const added = await seedCatalogue(bare.platform.services);
      expect(added.sort()).toEqual(readCatalogueEntries().filter((entry) => !entry.needs.apiKey && !entry.needs.platform).map((entry) => entry.input.slug).sort());
      const brave = keyedSeeds.find((entry) => entry.input.slug === 'brave-search')!;
      expect((await bare.api.get('/publishers/brave-search')).status).toBe(404);
      expect((await bare.api.get('/publishers/brave-search/res/v1/web/search?q=x')).status).toBe(404);
      expect(lines).toContainEqual(expect.objectContaining({ slug: 'brave-search', needs: expect.stringContaining('SEED_PUBLISHER_KEYS'), msg: 'catalogue publisher not loaded until configured' }));
      expect(lines).toContainEqual(expect.objectContaining({ slug: 'gmail', needs: expect.stringContaining('does not offer yet') }));
      expect(brave.needs.apiKey).toBeTruthy();
    } finally {
      await bare.close();
    }
  });
});

describe('seeding at start', () => {
  it('loads the catalogue when a development platform starts on an empty marketplace, unless SEED_CATALOGUE=false', async () => {
    const seeded = await startTestPlatform({ NODE_ENV: 'development', SEED_CATALOGUE: 'true' });
    const plain = await startTestPlatform({ NODE_ENV: 'development' });
    try {
      expect((await seeded.api.get('/publishers')).body.data).toHaveLength(readCatalogueEntries().filter((entry) => !entry.needs.apiKey && !entry.needs.platform).length);
      expect((await plain.api.get('/publishers')).body.data).toEqual([]);
    } finally {
      await Promise.all([seeded.close(), plain.close()]);
    }
  });
});
