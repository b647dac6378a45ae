import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { registerAgent, signUpVerified, type SignedInUser } from '../support/accounts.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { createPublisher, uniqueSlug } from '../support/publishers.js';

/**
 * The read path's shortcuts must not change an answer: one-hop execution answers as the gateway's
 * query plan does, and the catalogue's cached pages follow every publisher change. Four replicas
 * on one database: one with the shortcuts, one without, one with a tight catalogue budget, and one
 * more with the shortcuts.
 */
const sharedEnv = {
  JWT_SECRET: randomBytes(32).toString('hex'),
  INTERNAL_SECRET: randomBytes(32).toString('hex'),
  SECRETS_KEY: randomBytes(32).toString('hex'),
  // Far longer than any wait below: only a change notice can explain a page that changed.
  PUBLIC_ANSWER_CACHE_SECONDS: '300',
};

let oneHop: TestPlatform;
let viaGateway: TestPlatform;
let tight: TestPlatform;
/** Like `oneHop`, in a process of its own: it learns of changes by their notices. */
let follower: TestPlatform;
let owner: SignedInUser;
let agentKey: string;
let slug: string;

beforeAll(async () => {
  oneHop = await startTestPlatform(sharedEnv);
  viaGateway = await startTestPlatform({ ...sharedEnv, GRAPHQL_ONE_HOP: 'false', PUBLIC_ANSWER_CACHE_SECONDS: '0' }, { database: oneHop.database });
  tight = await startTestPlatform({ ...sharedEnv, CATALOGUE_READS_PER_MINUTE: '6' }, { database: oneHop.database });
  follower = await startTestPlatform(sharedEnv, { database: oneHop.database });
  owner = await signUpVerified(oneHop);
  agentKey = (await registerAgent(oneHop, { name: 'reader' })).api_key;
  slug = (await createPublisher(oneHop, owner.accessToken, { name: 'Read Path Quotes' })).slug;
});
afterAll(async () => {
  await follower?.close();
  await tight?.close();
  await viaGateway?.close();
  await oneHop?.close();
});

const ME = '{ me { id email name kind emailVerified createdAt defaultOrganization { id name personal role createdAt } } }';
const CATALOGUE = `query($slug: String!) {
  publishers(input: { limit: 5 }) { slug name endpoints { method path price access } pricing { pricingModel minCharge pricePerCall } totalQueries logoUrl }
  publisher(slug: $slug) { slug gatewayFeePercent createdAt }
}`;
/** Spans accounts and the marketplace: planned by the gateway on both replicas. */
const ACROSS_SUBGRAPHS = '{ me { id defaultOrganization { id publishers { slug } } } }';

describe('one-hop execution', () => {
  it('answers REST reads, errors included, exactly as the gateway does', async () => {
    const requests: [string, string | undefined][] = [
      ['/auth/me', agentKey],
      ['/auth/me', owner.accessToken],
      ['/auth/me', undefined],
      ['/organizations', owner.accessToken],
      ['/wallet/balance', agentKey],
      ['/wallet/transactions?limit=5', agentKey],
      ['/wallet/transactions?limit=0', agentKey],
      ['/publishers?limit=2', undefined],
      [`/publishers/${slug}`, undefined],
      ['/publishers/no-such-publisher', undefined],
      ['/publishers?category=nonsense', undefined],
    ];
    for (const [path, token] of requests) {
      const [direct, planned] = await Promise.all([oneHop.api.request('GET', path, undefined, { token }), viaGateway.api.request('GET', path, undefined, { token })]);
      expect({ path, status: direct.status, body: direct.body }).toEqual({ path, status: planned.status, body: planned.body });
    }
  });

  it('answers GraphQL queries, variable errors and cross-subgraph queries exactly as the gateway does', async () => {
    const cases: { query: string; variables?: Record<string, unknown>; token?: string }[] = [
      { query: ME, token: agentKey },
      { query: CATALOGUE, variables: { slug } },
      { query: CATALOGUE, variables: { slug: 42 } },
      { query: ACROSS_SUBGRAPHS, token: owner.accessToken },
      { query: '{ me { id } }' },
      { query: '{ __type(name: "Publisher") { name } }' },
    ];
    for (const { query, variables, token } of cases) {
      const [direct, planned] = await Promise.all([
        oneHop.api.post('/graphql', { query, variables }, { token }),
        viaGateway.api.post('/graphql', { query, variables }, { token }),
      ]);
      expect({ query, status: direct.status, body: direct.body }).toEqual({ query, status: planned.status, body: planned.body });
    }
  });
});

/** POST /graphql as sent, answered as received: status, media type and the exact bytes. */
async function rawGraphQL(t: TestPlatform, body: string, headers: Record<string, string>) {
  const response = await fetch(`${t.api.baseUrl}/graphql`, { method: 'POST', headers, body });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

describe('prepared GraphQL operations', () => {
  it('are answered in the GraphQL server\'s exact bytes, statuses and media type, whatever the request', async () => {
    const json = { 'content-type': 'application/json' };
    const agent = { ...json, authorization: `Bearer ${agentKey}` };
    const named = 'query Mine { me { id name } } query Catalogue { publishers(input: { limit: 1 }) { slug } }';
    const cases: [string, Record<string, string>][] = [
      [JSON.stringify({ query: ME }), agent],
      [JSON.stringify({ query: ME }), json],
      [JSON.stringify({ query: ME, variables: null, operationName: null }), { ...agent, accept: 'application/json' }],
      [JSON.stringify({ query: ME }), { ...agent, accept: 'application/graphql-response+json, application/json;q=0.9' }],
      [JSON.stringify({ query: ME }), { ...agent, accept: 'text/html' }],
      [JSON.stringify({ query: named, operationName: 'Catalogue' }), json],
      [JSON.stringify({ query: named }), json],
      [JSON.stringify({ query: named, operationName: 'Nobody' }), json],
      [JSON.stringify({ query: CATALOGUE, variables: { slug: 'no-such-publisher' } }), json],
      [JSON.stringify({ query: CATALOGUE, variables: { slug: ['x'] } }), json],
      [JSON.stringify({ query: CATALOGUE, variables: { slug: 'a\u0000b' } }), json],
      [JSON.stringify({ query: CATALOGUE, variables: '{"slug":"x"}' }), json],
      [JSON.stringify({ query: '{ me { id nam } }' }), agent],
      [JSON.stringify({ query: '{ me { id ' }), agent],
      [JSON.stringify({ query: ME, extensions: { persistedQuery: { version: 1, sha256Hash: 'abc' } } }), agent],
      [JSON.stringify({ query: 'mutation { deactivatePublisher(slug: "no-such-publisher") { slug } }' }), agent],
      [JSON.stringify({ query: 'subscription { me { id } }' }), agent],
      [JSON.stringify({ query: ME }), { 'content-type': 'text/plain', authorization: `Bearer ${agentKey}` }],
      [JSON.stringify([{ query: ME }]), agent],
    ];
    for (const [body, headers] of cases) {
      const [prepared, planned] = await Promise.all([rawGraphQL(oneHop, body, headers), rawGraphQL(viaGateway, body, headers)]);
      expect({ body, headers, ...prepared }).toEqual({ body, headers, ...planned });
    }
  });

  it('see a change made between two requests: a prepared document is not a cached answer', async () => {
    const query = JSON.stringify({ query: `query($slug: String!) { publisher(slug: $slug) { description } }`, variables: { slug } });
    const read = async () => JSON.parse((await rawGraphQL(oneHop, query, { 'content-type': 'application/json' })).text).data.publisher.description;
    await read();
    const description = `Prepared ${randomBytes(4).toString('hex')}`;
    expect((await oneHop.api.patch(`/publishers/${slug}`, { description }, { token: owner.accessToken })).status).toBe(200);
    expect(await read()).toBe(description);
  });
});

/** The listed description of `slug` once the listing shows `wanted`, or after 5 s whatever it shows. */
async function descriptionOnce(t: TestPlatform, wanted: string): Promise<string | undefined> {
  const read = async () =>
    ((await t.api.get('/publishers?limit=100')).body.data as { slug: string; description: string }[]).find((p) => p.slug === slug)?.description;
  let seen = await read();
  for (let waited = 0; seen !== wanted && waited < 5000; waited += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    seen = await read();
  }
  return seen;
}

describe('cached catalogue pages', () => {
  it('show a publisher change at once in the process that made it, and within the notice delay in another', async () => {
    const listed = async (t: TestPlatform) => ((await t.api.get('/publishers?limit=100')).body.data as { slug: string; description: string }[]);
    // Both replicas now hold the pages.
    await listed(tight);
    const before = await listed(oneHop);

    const description = `Changed ${randomBytes(4).toString('hex')}`;
    const patched = await oneHop.api.patch(`/publishers/${slug}`, { description }, { token: owner.accessToken });
    expect(patched.status).toBe(200);
    expect((await listed(oneHop)).find((p) => p.slug === slug)?.description).toBe(description);
    expect(await descriptionOnce(tight, description)).toBe(description);

    // Behind the pages, the records: a URL never asked before shows the change too, here at once
    // and in the other replica once the notice arrives.
    let poll = 0;
    const freshPage = async (t: TestPlatform) =>
      ((await t.api.get(`/publishers?limit=100&poll=${poll++}`)).body.data as { slug: string; description: string }[]).find((p) => p.slug === slug)?.description;
    const second = `Changed again ${randomBytes(4).toString('hex')}`;
    expect(await freshPage(follower)).toBe(description);
    expect((await oneHop.api.patch(`/publishers/${slug}`, { description: second }, { token: owner.accessToken })).status).toBe(200);
    expect(await freshPage(oneHop)).toBe(second);
    let seen = await freshPage(follower);
    for (let waited = 0; seen !== second && waited < 5000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      seen = await freshPage(follower);
    }
    expect(seen).toBe(second);

    const created = await createPublisher(oneHop, owner.accessToken, { slug: uniqueSlug('fresh') });
    const after = await listed(oneHop);
    expect(after.map((p) => p.slug)).toContain(created.slug);
    expect(after.length).toBe(before.length + 1);
  });

  it('are served without spending the catalogue budget; reads that reach the database are limited per address', async () => {
    // So far this replica read two pages from the database (the list of 100, before and after the
    // change). The same page
    // again and again is read once, then served from the cache.
    for (let i = 0; i < 5; i++) expect((await tight.api.get('/publishers?limit=7')).status).toBe(200);
    const statuses: number[] = [];
    for (const search of ['alpha', 'beta', 'gamma', 'delta']) statuses.push((await tight.api.get(`/publishers?search=${search}`)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const refused = await tight.api.get('/publishers/suggest?query=quotes');
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('rate_limited');
  });
});
