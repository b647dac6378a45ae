import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { signUpVerified, type SignedInUser } from '../support/accounts.js';
import { createPublisher, uniqueSlug } from '../support/publishers.js';

let t: TestPlatform;
let owner: SignedInUser;
let embeddings: Record<string, any>;
let database: Record<string, any>;
beforeAll(async () => {
  t = await startTestPlatform();
  owner = await signUpVerified(t);
  embeddings = await createPublisher(t, owner.accessToken, {
    name: 'Vector Forge', slug: uniqueSlug('vectors'), description: 'Dense vectors for semantic search',
    resource_name: 'Embedding API', resource_description: 'Text to vectors', categories: ['ai'],
    capabilities: ['embeddings', 'semantic similarity'], use_cases: ['retrieval augmented generation'], publisher_category: 'compute',
  });
  database = await createPublisher(t, owner.accessToken, {
    name: 'Ledger Warehouse', slug: uniqueSlug('ledger'), description: 'Accounting rows on PostgreSQL', resource_name: 'General ledger',
    resource_description: 'Journal entries', categories: ['accounting'], capabilities: ['sql'], use_cases: ['audits'],
    publisher_category: 'database', endpoints: undefined,
  });
  await createPublisher(t, owner.accessToken, { name: 'Quote Stream' });
});
afterAll(() => t.close());

const slugs = (body: any) => body.data.map((row: any) => row.slug);

describe('listing publishers', () => {
  it('lists active publishers without a credential, with paging', async () => {
    const all = await t.api.get('/publishers');
    expect(all.status).toBe(200);
    expect(slugs(all.body)).toEqual(expect.arrayContaining([embeddings.slug, database.slug]));
    const page = await t.api.get('/publishers?limit=1&offset=1');
    expect(page.body.data).toHaveLength(1);
    expect(page.body.data[0].slug).toBe(all.body.data[1].slug);
  });

  it('filters by category and verification, and refuses an unknown category with 400', async () => {
    expect(slugs((await t.api.get('/publishers?category=database')).body)).toEqual([database.slug]);
    expect((await t.api.get('/publishers?is_verified=true')).body.data).toEqual([]);
    const bad = await t.api.get('/publishers?category=toaster');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_category');
    expect((await t.api.get('/publishers?limit=101')).status).toBe(400);
  });

  it('finds publishers by full-text search over capabilities and use cases', async () => {
    expect(slugs((await t.api.get('/publishers?search=embedding')).body)[0]).toBe(embeddings.slug);
    expect(slugs((await t.api.get('/publishers?search=retrieval%20generation')).body)).toEqual([embeddings.slug]);
    expect(slugs((await t.api.get('/publishers?search=journal')).body)).toEqual([database.slug]);
  });

  it('finds a publisher despite a typo in the search', async () => {
    expect(slugs((await t.api.get('/publishers?search=embedings')).body)[0]).toBe(embeddings.slug);
    expect(slugs((await t.api.get('/publishers?search=acounting')).body)[0]).toBe(database.slug);
  });

  it('does not list or show a deactivated publisher', async () => {
    const gone = await createPublisher(t, owner.accessToken, { name: 'Short Lived Embeddings' });
    await t.api.delete(`/publishers/${gone.slug}`, { token: owner.accessToken });
    expect(slugs((await t.api.get('/publishers?search=short%20lived')).body)).not.toContain(gone.slug);
    expect((await t.api.get(`/publishers/${gone.slug}`)).status).toBe(404);
  });

  it('shows one publisher by slug without a credential; 404 for an unknown slug', async () => {
    const one = await t.api.get(`/publishers/${embeddings.slug}`);
    expect(one.status).toBe(200);
    expect(one.body.data).toEqual(embeddings);
    const missing = await t.api.get('/publishers/no-such-publisher');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('publisher_not_found');
  });

  it('costs a constant number of queries for a page of publishers with endpoints and pricing', async () => {
    const countQueries = async (path: string) => {
      // Through the entity manager's connection and straight through its pool (plain-row reads).
      const connection = t.platform.services.orm.em.getConnection() as any;
      const pool = await connection.getNativeClient();
      const execute = connection.execute;
      const query = pool.query;
      let count = 0;
      // Only the catalogue's own queries: the platform's background work (the outbox's poll, say)
      // shares the connection and may run while the page is read.
      const counted = (sql: unknown) => {
        const text = typeof sql === 'string' ? sql : (sql as { text?: string } | undefined)?.text;
        if (/\bmarket_/.test(String(text))) count++;
      };
      connection.execute = function (...args: unknown[]) {
        counted(args[0]);
        return execute.apply(this, args);
      };
      pool.query = function (...args: unknown[]) {
        counted(args[0]);
        return query.apply(this, args);
      };
      try {
        const response = await t.api.get(path);
        expect(response.status).toBe(200);
        return { count, rows: response.body.data.length };
      } finally {
        connection.execute = execute;
        pool.query = query;
      }
    };
    const few = await countQueries('/publishers?limit=2');
    for (let index = 0; index < 8; index++) await createPublisher(t, owner.accessToken);
    const many = await countQueries('/publishers?limit=100');
    expect(many.rows).toBeGreaterThan(few.rows + 5);
    expect(few.count).toBeGreaterThan(0);
    expect(many.count).toBe(few.count);
    const searched = await countQueries('/publishers?search=quotes&limit=100');
    expect(searched.count).toBeLessThanOrEqual(few.count + 1);
  });
});

describe('suggestions', () => {
  it('ranks publishers with a score between 0 and 1 and a sentence saying what matched', async () => {
    const response = await t.api.get('/publishers/suggest?query=embeddings');
    expect(response.status).toBe(200);
    const [first] = response.body.data;
    expect(first).toMatchObject({ slug: embeddings.slug, match_reason: "capability 'embeddings' matches" });
    expect(first.score).toBeGreaterThan(0);
    expect(first.score).toBeLessThanOrEqual(1);
    expect(first.endpoints).toBeDefined();
  });

  it('names the category when that is what matched', async () => {
    const response = await t.api.get('/publishers/suggest?query=database');
    expect(response.body.data[0]).toMatchObject({ slug: database.slug, match_reason: 'category database' });
  });

  it('refuses an empty or missing query with 400', async () => {
    expect((await t.api.get('/publishers/suggest')).status).toBe(400);
    const empty = await t.api.get('/publishers/suggest?query=%20');
    expect(empty.status).toBe(400);
    expect(empty.body.error.code).toBe('missing_query');
  });
});

describe('a publisher by id', () => {
  it('is found by its id; an unknown id, or one that is no uuid, is 404 publisher_not_found, never a 500', async () => {
    const query = 'query($id: ID!) { publisherById(id: $id) { slug } }';
    expect((await t.api.graphql(query, { id: embeddings.id })).body.data?.publisherById).toEqual({ slug: embeddings.slug });
    for (const id of ['not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      const answer = await t.api.graphql(query, { id });
      expect(answer.body.errors?.[0].extensions).toMatchObject({ code: 'publisher_not_found' });
    }
  });
});
