import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { registerAgent, signUpVerified, type SignedInUser } from '../support/accounts.js';
import { organizationWithAdminKey } from '../support/organizations.js';
import { createPublisher, publisherBody, uniqueSlug } from '../support/publishers.js';
import { loadPublisherForCall } from '../../subgraphs/marketplace/services/load-publisher-for-call.js';

let t: TestPlatform;
let owner: SignedInUser;
beforeAll(async () => {
  t = await startTestPlatform();
  owner = await signUpVerified(t);
});
afterAll(() => t.close());

describe('creating a publisher', () => {
  it('answers 201 with every field of the record typed as the specification says', async () => {
    const body = publisherBody();
    const response = await t.api.post('/publishers', body, { token: owner.accessToken });
    expect(response.status).toBe(201);
    const record = response.body.data;
    expect(record).toMatchObject({
      name: 'Quote Stream', slug: body.slug, email: null, publisher_category: 'integration', publisher_type: 'organization',
      billing_model: 'prepaid_credits', gateway_fee_percent: '2.50', logo_url: null, a2a_health_status: 'unknown',
      is_active: true, is_verified: false, total_queries: 0, unique_agents_served: 0, total_revenue_atomic: 0,
      undocumented_endpoint_policy: 'default_allow', allowed_passthrough_headers: [], passthrough_header_rewrite: {},
      request_content_type: 'application/json', upstream_headers: {}, requires_user_oauth: false, routing: null,
    });
    expect(record.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(record.created_at).toISOString()).toBe(record.created_at);
    expect(record.endpoints).toHaveLength(3);
    expect(record.endpoints[0]).toMatchObject({
      method: 'GET', path: '/v1/quotes/{symbol}', price: '0.002', access: 'authenticated', is_protected: false, is_default: false,
      request_body: null, query_params: [{ name: 'fields', description: 'Fields', required: false, param_type: 'string', example: 'bid,ask' }],
    });
    expect(record.endpoints[1]).toMatchObject({ access: 'public_anonymous', price: null, query_params: null });
    expect(record.pricing).toEqual([
      expect.objectContaining({
        asset_id: '00000000-0000-4000-8000-000000000840', asset_symbol: 'USD', pricing_model: 'per_request',
        base_price_per_1000_rows: '0.00', markup_multiplier: '1.20', min_charge: '0.0005', price_per_call: '0.001',
        price_per_post: '0.01', price_per_get: null, payment_expiry_minutes: 5, prepaid_enabled: true, onchain_enabled: false,
        minimum_balance: '0.00', grace_period_minutes: null, max_queries_per_minute: null,
      }),
    ]);
  });

  it('never returns the upstream secret, and stores it encrypted', async () => {
    const record = await createPublisher(t, owner.accessToken);
    expect(JSON.stringify(record)).not.toContain('sk_upstream_secret_123');
    const [row] = await t.platform.services.orm.em.getConnection().execute(
      'select upstream_api_key_sealed from market_publisher where id = ?', [record.id]);
    expect(row.upstream_api_key_sealed).toMatch(/^v1\./);
    expect(row.upstream_api_key_sealed).not.toContain('sk_upstream');
  });

  it('gives a database publisher null endpoints', async () => {
    const record = await createPublisher(t, owner.accessToken, {
      publisher_category: 'database', database_type: 'postgres', endpoints: undefined, pricing: [{ pricing_model: 'per_row', base_price_per_1000_rows: '0.05' }],
    });
    expect(record.endpoints).toBeNull();
    expect(record.pricing[0]).toMatchObject({ pricing_model: 'per_row', base_price_per_1000_rows: '0.05' });
  });

  it('needs a Bearer credential', async () => {
    expect((await t.api.post('/publishers', publisherBody())).status).toBe(401);
  });

  it('refuses a taken slug with 409 slug_taken', async () => {
    const record = await createPublisher(t, owner.accessToken);
    const again = await t.api.post('/publishers', publisherBody({ slug: record.slug }), { token: owner.accessToken });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('slug_taken');
  });

  it('lets exactly one of racing creations of one slug through', async () => {
    const slug = uniqueSlug('race');
    const results = await Promise.all([1, 2, 3].map(() => t.api.post('/publishers', publisherBody({ slug }), { token: owner.accessToken })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
  });

  it.each([
    ['a bad slug', { slug: 'Bad Slug!' }, 'invalid_slug'],
    ['a reserved slug', { slug: 'suggest' }, 'invalid_slug'],
    ['an unknown category', { publisher_category: 'toaster' }, 'invalid_category'],
    ['an unknown billing model', { billing_model: 'barter' }, 'invalid_billing_model'],
    ['a relative api_url', { api_url: '/v1' }, 'invalid_url'],
    ['a non-http api_url', { api_url: 'ftp://x.example' }, 'invalid_url'],
    ['a broken placeholder', { endpoints: [{ method: 'GET', path: '/v1/{symbol' }] }, 'invalid_path'],
    ['an unknown method', { endpoints: [{ method: 'TRACE', path: '/v1' }] }, 'invalid_method'],
    ['a negative price', { pricing: [{ price_per_call: '-1' }] }, 'invalid_decimal'],
    ['a price that is not a decimal', { endpoints: [{ method: 'GET', path: '/', price: 'free' }] }, 'invalid_decimal'],
    ['a fee above 100 percent', { gateway_fee_percent: '100.5' }, 'invalid_gateway_fee_percent'],
    ['a missing name', { name: undefined }, 'missing_name'],
  ])('refuses %s with 400', async (_label, overrides, code) => {
    const response = await t.api.post('/publishers', publisherBody(overrides), { token: owner.accessToken });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe(code);
  });
});

describe('managing a publisher', () => {
  it('lets the owning organization change fields, endpoints and pricing', async () => {
    const record = await createPublisher(t, owner.accessToken);
    const response = await t.api.patch(`/publishers/${record.slug}`, {
      description: 'Changed', endpoints: [{ method: 'DELETE', path: '/v1/watch/{id}' }],
      pricing: [{ price_per_delete: '0.3', base_price_per_1000_rows: '1' }],
    }, { token: owner.accessToken });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ description: 'Changed', name: 'Quote Stream' });
    expect(response.body.data.endpoints.map((e: any) => e.path)).toEqual(['/v1/watch/{id}']);
    expect(response.body.data.pricing[0]).toMatchObject({ price_per_delete: '0.30', price_per_call: null, base_price_per_1000_rows: '1.00' });
  });

  it('refuses renaming to a slug another publisher uses with 409', async () => {
    const [first, second] = [await createPublisher(t, owner.accessToken), await createPublisher(t, owner.accessToken)];
    const response = await t.api.patch(`/publishers/${second.slug}`, { slug: first.slug }, { token: owner.accessToken });
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('slug_taken');
  });

  it('refuses another organization with 403 and an unknown slug with 404', async () => {
    const record = await createPublisher(t, owner.accessToken);
    const agent = await registerAgent(t);
    const patch = await t.api.patch(`/publishers/${record.slug}`, { description: 'mine now' }, { token: agent.api_key });
    expect(patch.status).toBe(403);
    expect(patch.body.error.code).toBe('not_publisher_owner');
    expect((await t.api.delete(`/publishers/${record.slug}`, { token: agent.api_key })).status).toBe(403);
    const missing = await t.api.patch(`/publishers/${uniqueSlug('nope')}`, { description: 'x' }, { token: owner.accessToken });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('publisher_not_found');
  });

  it('soft-deletes: the record is gone from reads, and the slug stays taken', async () => {
    const record = await createPublisher(t, owner.accessToken);
    const deleted = await t.api.delete(`/publishers/${record.slug}`, { token: owner.accessToken });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data.is_active).toBe(false);
    expect((await t.api.get(`/publishers/${record.slug}`)).status).toBe(404);
    expect((await t.api.post('/publishers', publisherBody({ slug: record.slug }), { token: owner.accessToken })).status).toBe(409);
  });

  it('works the same through GraphQL, and the organization lists its publishers', async () => {
    const slug = uniqueSlug('gql');
    const created = await t.api.graphql(
      'mutation($input: PublisherInput!) { createPublisher(input: $input) { id slug gatewayFeePercent } }',
      { input: { name: 'GQL', slug, publisherCategory: 'compute', computeType: 'function', gatewayFeePercent: '1' } },
      { token: owner.accessToken },
    );
    expect(created.body.data?.createPublisher).toMatchObject({ slug, gatewayFeePercent: '1.00' });
    const orgs = await t.api.graphql('query { organizations { id publishers { slug } } }', {}, { token: owner.accessToken });
    const slugs = orgs.body.data.organizations.flatMap((org: any) => org.publishers.map((p: any) => p.slug));
    expect(slugs).toContain(slug);
  });

  it('answers the publisherPayee port for the proxy and wallet', async () => {
    const record = await createPublisher(t, owner.accessToken);
    const em = t.platform.services.orm.em.fork();
    expect(await t.platform.services.ports.publisherPayee!(em as any, record.id)).toEqual({
      publisherId: record.id, slug: record.slug, walletAddress: '0x1111111111111111111111111111111111111111', walletNetworkId: 'eip155:84532',
    });
    expect(await t.platform.services.ports.publisherPayee!(em as any, 'not-a-uuid')).toBeNull();
  });

  it('gives the proxy the record, endpoints, pricing and decrypted upstream secrets', async () => {
    const record = await createPublisher(t, owner.accessToken, { token_exchange_credentials: { client_id: 'abc', client_secret: 'shh' } });
    const { services } = t.platform;
    const loaded = await loadPublisherForCall(services, services.orm.em.fork() as any, record.slug);
    expect(loaded.publisher.id).toBe(record.id);
    expect(loaded.endpoints?.map((e) => e.path)).toEqual(['/v1/quotes/{symbol}', '/v1/markets', '/v1/batch']);
    expect(loaded.pricing[0]!.pricePerCall).toBe(1000n);
    expect(loaded.secrets).toEqual({ upstreamApiKey: 'sk_upstream_secret_123', tokenExchangeCredentials: { client_id: 'abc', client_secret: 'shh' } });
    const cleared = await t.api.patch(`/publishers/${record.slug}`, { upstream_api_key: null }, { token: owner.accessToken });
    expect(cleared.status).toBe(200);
    expect((await loadPublisherForCall(services, services.orm.em.fork() as any, record.slug)).secrets.upstreamApiKey).toBeNull();
  });
});

describe('who manages an organization’s publishers', () => {
  it('its owners and admins; a key of someone who is now a plain member is refused (403 organization_admin_required)', async () => {
    const { owner, admin, key } = await organizationWithAdminKey(t);
    const record = await createPublisher(t, owner.accessToken);
    expect((await t.api.patch(`/publishers/${record.slug}`, { description: 'by an admin' }, { token: key })).status).toBe(200);

    await t.platform.services.orm.em.fork().execute(`update account_membership set role = 'member' where user_id = ? and organization_id = ?`, [admin.id, owner.organizationId]);
    const changed = await t.api.patch(`/publishers/${record.slug}`, { wallet_address: '0x2222222222222222222222222222222222222222' }, { token: key });
    expect([changed.status, changed.body.error.code]).toEqual([403, 'organization_admin_required']);
    const created = await t.api.post('/publishers', publisherBody(), { token: key });
    expect([created.status, created.body.error.code]).toEqual([403, 'organization_admin_required']);
  });
});
