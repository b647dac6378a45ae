import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { registerAgent, signUpVerified, type SignedInUser } from '../support/accounts.js';
import { createPublisher } from '../support/publishers.js';
import { splitSecrets, startSubgraphProcess, type SubgraphProcess } from '../support/subgraph-process.js';

const secrets = splitSecrets();
let t: TestPlatform;
let owner: SignedInUser;
let other: SignedInUser;
let publisher: Record<string, any>;
let otherPublisher: Record<string, any>;

beforeAll(async () => {
  t = await startTestPlatform({ ...secrets, FEDERATION_MAX_DATA_BYTES: '1024' });
  [owner, other] = await Promise.all([signUpVerified(t), signUpVerified(t)]);
  [publisher, otherPublisher] = await Promise.all([
    createPublisher(t, owner.accessToken, { name: 'Fed Owner' }),
    createPublisher(t, other.accessToken, { name: 'Fed Other' }),
  ]);
});
afterAll(() => t.close());

const upsert = (token: string | undefined, body: Record<string, unknown>) => t.api.post('/federation', body, { token });
const resource = (overrides: Record<string, unknown> = {}) => ({ resource_type: 'dataset', external_id: `ext-${randomUUID()}`, title: 'Prices', data: { rows: 3 }, ...overrides });
const historyOf = async (slug: string, query = '') => (await t.api.get(`/federation/history?publisher_slug=${slug}${query}`)).body.data as any[];

describe('federated resources', () => {
  it('an upsert inserts, then updates the same resource (same id), each change one history entry with the document before and after', async () => {
    const body = resource({ resource_type: 'report' });
    const inserted = await upsert(owner.accessToken, body);
    expect(inserted.status).toBe(200);
    expect(inserted.body.data).toMatchObject({ resource_type: 'report', external_id: body.external_id, status: 'active', title: 'Prices', data: { rows: 3 } });
    expect(inserted.body.data.publisher).toEqual({ id: publisher.id, name: 'Fed Owner', slug: publisher.slug });
    expect(inserted.body.data.publisher_slug).toBe(publisher.slug);
    const updated = await upsert(owner.accessToken, { ...body, title: 'Prices v2', status: 'draft' });
    expect([updated.status, updated.body.data.id, updated.body.data.title]).toEqual([200, inserted.body.data.id, 'Prices v2']);
    const entries = await historyOf(publisher.slug, `&external_id=${body.external_id}`);
    expect(entries.map((entry) => entry.operation)).toEqual(['update', 'insert']);
    expect(entries[0]).toMatchObject({ resource_id: inserted.body.data.id, actor_id: owner.id, publisher_slug: publisher.slug, before: { title: 'Prices' }, after: { title: 'Prices v2', status: 'draft' } });
    expect(entries[0].sequence).toBe(entries[1].sequence + 1);
  });

  it('an upsert that changes nothing appends nothing', async () => {
    const body = resource();
    await upsert(owner.accessToken, body);
    await upsert(owner.accessToken, body);
    expect(await historyOf(publisher.slug, `&external_id=${body.external_id}`)).toHaveLength(1);
  });

  it('only a publisher may publish: 401 without a credential, 403 not_a_publisher, 403 for a slug of another, 400 when the organization owns several and names none', async () => {
    expect((await upsert(undefined, resource())).status).toBe(401);
    const agent = await registerAgent(t, { name: 'no publisher' });
    const refused = await upsert(agent.api_key, resource());
    expect([refused.status, refused.body.error.code]).toEqual([403, 'not_a_publisher']);
    const foreign = await upsert(owner.accessToken, resource({ publisher_slug: otherPublisher.slug }));
    expect([foreign.status, foreign.body.error.code]).toEqual([403, 'not_publisher_owner']);
    const twice = await signUpVerified(t);
    const [first] = await Promise.all([createPublisher(t, twice.accessToken), createPublisher(t, twice.accessToken)]);
    const ambiguous = await upsert(twice.accessToken, resource());
    expect([ambiguous.status, ambiguous.body.error.code]).toEqual([400, 'publisher_slug_required']);
    const named = await upsert(twice.accessToken, resource({ publisher_slug: first!.slug }));
    expect([named.status, named.body.data.publisher.slug]).toEqual([200, first!.slug]);
  });

  it.each([
    ['a resource_type with spaces', { resource_type: 'not a type' }, 'invalid_resource_type'],
    ['an empty external_id', { external_id: '' }, 'invalid_external_id'],
    ['a status in capitals', { status: 'LIVE' }, 'invalid_status'],
    ['a url that is not http(s)', { url: 'file:///etc/passwd' }, 'invalid_url'],
    ['a data document above FEDERATION_MAX_DATA_BYTES', { data: { blob: 'x'.repeat(2000) } }, 'data_too_large'],
  ])('refuses %s with 400 and stores nothing', async (_label, overrides, code) => {
    const body = resource(overrides);
    const response = await upsert(owner.accessToken, body);
    expect([response.status, response.body.error.code]).toEqual([400, code]);
  });

  it('GET /federation filters by publisher, type and status (default active) and pages within 1..100', async () => {
    const type = `kind-${randomUUID().slice(0, 8)}`;
    await upsert(owner.accessToken, resource({ resource_type: type }));
    await upsert(owner.accessToken, resource({ resource_type: type, status: 'archived' }));
    await upsert(other.accessToken, resource({ resource_type: type }));
    const active = (await t.api.get(`/federation?resource_type=${type}`)).body.data;
    expect(active).toHaveLength(2);
    const mine = (await t.api.get(`/federation?resource_type=${type}&publisher_slug=${publisher.slug}`)).body.data;
    expect(mine.map((item: any) => [item.publisher_slug, item.publisher.name, item.status])).toEqual([[publisher.slug, 'Fed Owner', 'active']]);
    expect((await t.api.get(`/federation?resource_type=${type}&status=archived`)).body.data).toHaveLength(1);
    expect((await t.api.get(`/federation?resource_type=${type}&limit=1&offset=1`)).body.data).toHaveLength(1);
    expect((await t.api.get('/federation?publisher_slug=no-such-publisher')).body.data).toEqual([]);
    for (const query of ['limit=0', 'limit=101', 'offset=-1', 'limit=abc']) {
      const response = await t.api.get(`/federation?${query}`);
      expect([query, response.status]).toEqual([query, 400]);
    }
    expect((await t.api.get('/federation/history?limit=101')).body.error.code).toBe('invalid_limit');
  });

  it('GET /federation/{id} answers the resource; an unknown or malformed id is 404', async () => {
    const created = (await upsert(owner.accessToken, resource())).body.data;
    expect((await t.api.get(`/federation/${created.id}`)).body.data).toEqual(created);
    expect((await t.api.get(`/federation/${randomUUID()}`)).status).toBe(404);
    const malformed = await t.api.get('/federation/not-a-uuid');
    expect([malformed.status, malformed.body.error.code]).toEqual([404, 'federated_resource_not_found']);
  });

  it('DELETE is 401 without a credential, 403 for another publisher, 404 when unknown, 204 for the owner; the history keeps every entry', async () => {
    const body = resource();
    const created = (await upsert(owner.accessToken, body)).body.data;
    const path = `/federation/${body.resource_type}/${body.external_id}`;
    expect((await t.api.delete(path)).status).toBe(401);
    const foreign = await t.api.delete(path, { token: other.accessToken });
    expect([foreign.status, foreign.body.error.code]).toEqual([403, 'not_publisher_owner']);
    expect((await t.api.delete(`/federation/dataset/unknown-${randomUUID()}`, { token: owner.accessToken })).status).toBe(404);
    expect((await t.api.delete(path, { token: owner.accessToken })).status).toBe(204);
    expect((await t.api.get(`/federation/${created.id}`)).status).toBe(404);
    expect((await t.api.delete(path, { token: owner.accessToken })).status).toBe(404);
    const entries = await historyOf(publisher.slug, `&external_id=${body.external_id}`);
    expect(entries.map((entry) => [entry.operation, entry.resource_id])).toEqual([['delete', created.id], ['insert', created.id]]);
    expect(entries[0]).toMatchObject({ before: { title: 'Prices' }, after: null });
    expect((await historyOf(publisher.slug, '&operation=delete')).length).toBeGreaterThanOrEqual(1);
    expect((await t.api.get('/federation/history?operation=rename')).body.error.code).toBe('invalid_operation');
  });

  it('DELETE when several of the organization’s publishers hold the resource is 400 publisher_slug_required; publisher_slug names the one', async () => {
    const twice = await signUpVerified(t);
    const [first, second] = await Promise.all([createPublisher(t, twice.accessToken), createPublisher(t, twice.accessToken)]);
    const body = resource();
    for (const own of [first!, second!]) expect((await upsert(twice.accessToken, { ...body, publisher_slug: own.slug })).status).toBe(200);
    const path = `/federation/${body.resource_type}/${body.external_id}`;
    const ambiguous = await t.api.delete(path, { token: twice.accessToken });
    expect([ambiguous.status, ambiguous.body.error.code]).toEqual([400, 'publisher_slug_required']);
    expect((await t.api.delete(`${path}?publisher_slug=${first!.slug}`, { token: twice.accessToken })).status).toBe(204);
    expect((await historyOf(first!.slug, `&external_id=${body.external_id}`)).map((entry) => entry.operation)).toEqual(['delete', 'insert']);
    expect((await historyOf(second!.slug, `&external_id=${body.external_id}`)).map((entry) => entry.operation)).toEqual(['insert']);
    expect((await t.api.delete(path, { token: twice.accessToken })).status).toBe(204);
  });

  it('GraphQL answers the same records, the publisher resolved by the marketplace through the supergraph', async () => {
    const created = (await upsert(owner.accessToken, resource({ resource_type: 'graphql-check' }))).body.data;
    const response = await t.api.graphql(
      'query($input: FederatedResourceListInput) { federatedResources(input: $input) { id externalId publisher { name slug } } }',
      { input: { resourceType: 'graphql-check' } },
    );
    expect(response.body.data.federatedResources).toEqual([{ id: created.id, externalId: created.external_id, publisher: { name: 'Fed Owner', slug: publisher.slug } }]);
    const write = await t.api.graphql('mutation($input: UpsertFederatedResourceInput!) { upsertFederatedResource(input: $input) { id } }', {
      input: { resourceType: 'graphql-check', externalId: created.external_id, title: 'renamed' },
    }, { token: other.accessToken });
    expect(write.body.data.upsertFederatedResource.id).not.toBe(created.id);
  });

  it('stats count resources by publisher, type and status, and history entries by operation, with the time of the last change', async () => {
    const slugged = await signUpVerified(t);
    const own = await createPublisher(t, slugged.accessToken, { name: 'Stats Pub' });
    const a = resource({ resource_type: 'alpha' });
    await upsert(slugged.accessToken, a);
    await upsert(slugged.accessToken, { ...a, status: 'retired' });
    await upsert(slugged.accessToken, resource({ resource_type: 'beta' }));
    const stats = (await t.api.get(`/federation/stats?publisher_slug=${own.slug}`)).body.data;
    expect(stats).toMatchObject({
      total: 2,
      by_publisher: [{ publisher: { slug: own.slug, name: 'Stats Pub' }, count: 2 }],
      by_resource_type: [{ key: 'alpha', count: 1 }, { key: 'beta', count: 1 }],
      by_status: [{ key: 'active', count: 1 }, { key: 'retired', count: 1 }],
    });
    expect(Date.parse(stats.last_change_at)).not.toBeNaN();
    const history = (await t.api.get(`/federation/history/stats?publisher_slug=${own.slug}&resource_type=alpha`)).body.data;
    expect(history).toMatchObject({ total: 2, by_operation: [{ key: 'insert', count: 1 }, { key: 'update', count: 1 }] });
    expect((await t.api.get('/federation/stats')).body.data.total).toBeGreaterThanOrEqual(2);
  });
});

describe('the history no one can rewrite', () => {
  it('the database itself refuses UPDATE, DELETE and TRUNCATE of history rows to the role the platform connects as', async () => {
    await upsert(owner.accessToken, resource());
    const em = t.platform.services.orm.em.fork();
    await expect(em.execute(`update fed_history set after = '{}'::jsonb`)).rejects.toThrow(/append-only/);
    await expect(em.execute('delete from fed_history')).rejects.toThrow(/append-only/);
    await expect(em.execute('truncate fed_history')).rejects.toThrow(/append-only/);
    const [row] = await em.execute('select count(*)::int as n from fed_history');
    expect(row.n).toBeGreaterThan(0);
  });

  it('sequence numbers stay gap-free and unique when twenty changes of one publisher race', async () => {
    const racer = await signUpVerified(t);
    const own = await createPublisher(t, racer.accessToken);
    const shared = resource();
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => upsert(racer.accessToken, i % 2 ? resource() : { ...shared, title: `t${i}` })),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(20).fill(200));
    const entries = await historyOf(own.slug, '&limit=100');
    expect(entries.map((entry) => entry.sequence).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(entries.filter((entry) => entry.external_id === shared.external_id && entry.operation === 'insert')).toHaveLength(1);
    expect((await t.api.get(`/federation/history/verify?publisher_slug=${own.slug}`)).body.data).toMatchObject({ intact: true, entries: 20, first_broken_sequence: null });
  });

  it('the hash chain catches a row its owner rewrote with the trigger switched off, naming the first broken sequence', async () => {
    const victim = await signUpVerified(t);
    const own = await createPublisher(t, victim.accessToken);
    const body = resource();
    for (const title of ['one', 'two', 'three', 'four']) await upsert(victim.accessToken, { ...body, title });
    const verify = async () => (await t.api.get(`/federation/history/verify?publisher_slug=${own.slug}`)).body.data;
    expect(await verify()).toEqual({ publisher: { id: own.id, name: own.name, slug: own.slug }, publisher_slug: own.slug, intact: true, entries: 4, last_sequence: 4, first_broken_sequence: null });
    const owner = new pg.Client({ connectionString: t.database.url });
    await owner.connect();
    try {
      await owner.query('begin');
      await owner.query('alter table fed_history disable trigger fed_history_append_only');
      await owner.query(`update fed_history set after = jsonb_set(after, '{title}', '"forged"') where publisher_id = $1 and sequence = 3`, [own.id]);
      await owner.query('alter table fed_history enable always trigger fed_history_append_only');
      await owner.query('commit');
    } finally {
      await owner.end();
    }
    expect(await verify()).toMatchObject({ intact: false, entries: 2, last_sequence: 4, first_broken_sequence: 3 });
    expect((await t.api.get('/federation/history/verify')).body.error.code).toBe('missing_publisher_slug');
    expect((await t.api.get('/federation/history/verify?publisher_slug=no-such-pub')).status).toBe(404);
  });
  it('the chain head catches a chain cut short at its end: the missing last sequence is the first broken one', async () => {
    const victim = await signUpVerified(t);
    const own = await createPublisher(t, victim.accessToken);
    for (let i = 0; i < 3; i++) await upsert(victim.accessToken, resource());
    const owner = new pg.Client({ connectionString: t.database.url });
    await owner.connect();
    try {
      await owner.query('begin');
      await owner.query('alter table fed_history disable trigger fed_history_append_only');
      await owner.query('delete from fed_history where publisher_id = $1 and sequence = 3', [own.id]);
      await owner.query('alter table fed_history enable always trigger fed_history_append_only');
      await owner.query('commit');
    } finally {
      await owner.end();
    }
    const verified = (await t.api.get(`/federation/history/verify?publisher_slug=${own.slug}`)).body.data;
    expect(verified).toMatchObject({ intact: false, entries: 2, last_sequence: 3, first_broken_sequence: 3 });
  });
});

describe('the federation subgraph in its own process (split mode)', () => {
  let subgraph: SubgraphProcess;
  let split: TestPlatform;
  beforeAll(async () => {
    subgraph = await startSubgraphProcess('federation', t.database.url, secrets, t.platform.url);
    split = await startTestPlatform({ ...secrets, SUBGRAPH_FEDERATION_URL: subgraph.url }, { database: t.database });
  });
  afterAll(async () => {
    subgraph?.stop();
    await split?.close();
  });

  it('answers federatedResources { publisher { name } } across processes as the single process does', async () => {
    await upsert(owner.accessToken, resource({ resource_type: 'split-check' }));
    const query = '{ federatedResources(input: { resourceType: "split-check" }) { id publisher { name slug } } }';
    const viaSplit = await split.api.graphql(query);
    expect(viaSplit.body.data.federatedResources[0].publisher).toEqual({ name: 'Fed Owner', slug: publisher.slug });
    expect(viaSplit.body).toEqual((await t.api.graphql(query)).body);
    const rest = await split.api.get('/federation?resource_type=split-check');
    expect(rest.body).toEqual((await t.api.get('/federation?resource_type=split-check')).body);
  });
});
