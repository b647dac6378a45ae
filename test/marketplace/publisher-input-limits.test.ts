import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { signUpVerified, type SignedInUser } from '../support/accounts.js';
import { createPublisher, publisherBody } from '../support/publishers.js';

let t: TestPlatform;
let owner: SignedInUser;
beforeAll(async () => {
  t = await startTestPlatform();
  owner = await signUpVerified(t);
});
afterAll(() => t.close());

const create = (overrides: Record<string, unknown>) => t.api.post('/publishers', publisherBody(overrides), { token: owner.accessToken });
const refusal = (response: { status: number; body: any }) => [response.status, response.body.error?.code];

describe('a NUL character (U+0000), which PostgreSQL text cannot hold', () => {
  it.each([
    ['name', { name: 'Quote\u0000Stream' }],
    ['description', { description: 'a\u0000b' }],
    ['a category', { categories: ['fin\u0000ance'] }],
    ['an endpoint path', { endpoints: [{ method: 'GET', path: '/v1/a\u0000b' }] }],
    ['a JSON value', { upstream_headers: { 'x-version': 'a\u0000b' } }],
    ['a JSON key', { database_config: { 'a\u0000': 1 } }],
    ['a usage example', { usage_examples: [{ title: 't\u0000', description: 'd', curl: 'c' }] }],
    ['an asset symbol', { pricing: [{ asset_symbol: 'US\u0000D' }] }],
  ])('in %s is 400 invalid_text, on create', async (_label, overrides) => {
    expect(refusal(await create(overrides))).toEqual([400, 'invalid_text']);
  });

  it('is 400 invalid_text on update, in search and suggest, and in a GraphQL literal', async () => {
    const record = await createPublisher(t, owner.accessToken);
    expect(refusal(await t.api.patch(`/publishers/${record.slug}`, { resource_name: 'x\u0000y' }, { token: owner.accessToken }))).toEqual([400, 'invalid_text']);
    expect(refusal(await t.api.get('/publishers?search=a%00b'))).toEqual([400, 'invalid_text']);
    expect(refusal(await t.api.get('/publishers/suggest?query=%00'))).toEqual([400, 'invalid_text']);
    const literal = await t.api.graphql('query { publishers(input: { search: "x\\u0000" }) { id } }', {});
    expect(literal.status).toBe(400);
    expect(literal.body.errors?.[0]?.extensions).toMatchObject({ code: 'invalid_text', status: 400 });
  });
});

describe('amounts', () => {
  it.each([
    ['a price above 1,000,000', { pricing: [{ price_per_call: '1000000.000001' }] }, 'pricing[0].price_per_call must be at most 1000000.00'],
    ['an endpoint price above 1,000,000', { endpoints: [{ method: 'GET', path: '/a', price: '999999999999999' }] }, 'endpoints[0].price must be at most'],
    ['a markup above 100', { pricing: [{ markup_multiplier: '100.5' }] }, 'pricing[0].markup_multiplier must be at most 100.00'],
  ])('%s is 400 invalid_decimal (the ledger holds 64-bit amounts)', async (_label, overrides, message) => {
    const response = await create(overrides);
    expect(refusal(response)).toEqual([400, 'invalid_decimal']);
    expect(response.body.error.message).toContain(message);
  });

  it('the largest price at the largest markup and fee is quoted, not a 500', async () => {
    const record = await createPublisher(t, owner.accessToken, {
      gateway_fee_percent: '100',
      pricing: [{ pricing_model: 'per_request', price_per_call: '1000000', markup_multiplier: '100' }],
    });
    const estimate = await t.api.post(`/publishers/${record.slug}/estimate`, { publisher_id: record.id, query: 'GET /v1/quotes/X' });
    expect(estimate.status).toBe(200);
  });
});

describe('sizes and shapes checked when stored, not found broken on every call', () => {
  it.each([
    ['a 20,001-character description', 'invalid_description', { description: 'x'.repeat(20_001) }],
    ['101 categories', 'invalid_list', { categories: Array.from({ length: 101 }, (_, i) => `c${i}`) }],
    ['an upstream header name with a space', 'invalid_header_name', { upstream_headers: { 'bad header': 'x' } }],
    ['an upstream header value with CR LF', 'invalid_header_value', { upstream_headers: { 'x-ok': 'a\r\nb' } }],
    ['an upstream header value that is an object', 'invalid_header_value', { upstream_headers: { 'x-ok': { a: 1 } } }],
    ['a request_content_type with CR LF', 'invalid_request_content_type', { request_content_type: 'text/plain\r\n;X-Injected: 1' }],
    ['a passthrough header that is not a header name', 'invalid_header_name', { allowed_passthrough_headers: ['x foo'] }],
    ['a rewrite target that is not a header name', 'invalid_header_name', { allowed_passthrough_headers: ['x-foo'], passthrough_header_rewrite: { 'x-foo': 'bad name' } }],
    ['a rewrite target that is a number', 'invalid_header_name', { allowed_passthrough_headers: ['x-foo'], passthrough_header_rewrite: { 'x-foo': 5 } }],
    ['a rewrite target that is null', 'invalid_header_name', { allowed_passthrough_headers: ['x-foo'], passthrough_header_rewrite: { 'x-foo': null } }],
    ['two endpoints with one method and path', 'duplicate_endpoint', { endpoints: [{ method: 'GET', path: '/a', price: '1' }, { method: 'get', path: '/a', access: 'public_anonymous' }] }],
    ['an eip155 wallet_address that is no 0x address', 'invalid_wallet_address', { wallet_address: 'not-an-address', wallet_network_id: 'eip155:84532' }],
    ['a credential in upstream_headers (public, and never sent)', 'header_not_forwarded', { upstream_headers: { Authorization: 'Bearer sk_live' } }],
    ['a cookie passed through', 'header_not_forwarded', { allowed_passthrough_headers: ['Cookie'] }],
    ['a header renamed to Authorization', 'header_not_forwarded', { allowed_passthrough_headers: ['x-token'], passthrough_header_rewrite: { 'x-token': 'Authorization' } }],
    ['max_queries_per_minute 0 (null is no limit)', 'invalid_integer', { pricing: [{ max_queries_per_minute: 0 }] }],
    ['payment_expiry_minutes 0', 'invalid_integer', { pricing: [{ payment_expiry_minutes: 0 }] }],
    ['payment_expiry_minutes beyond a day', 'invalid_integer', { pricing: [{ payment_expiry_minutes: 1441 }] }],
  ])('%s is 400 %s', async (_label, code, overrides) => {
    expect(refusal(await create(overrides))).toEqual([400, code]);
  });

  it('header settings within the rules are kept as given', async () => {
    const record = await createPublisher(t, owner.accessToken, {
      upstream_headers: { 'X-Version': '2024-01-01', 'x-flag': true },
      allowed_passthrough_headers: ['X-Trace'],
      passthrough_header_rewrite: { 'x-trace': 'X-Upstream-Trace' },
      request_content_type: 'application/json; charset=utf-8',
    });
    expect(record).toMatchObject({
      upstream_headers: { 'X-Version': '2024-01-01', 'x-flag': 'true' },
      allowed_passthrough_headers: ['x-trace'],
      passthrough_header_rewrite: { 'x-trace': 'X-Upstream-Trace' },
      request_content_type: 'application/json; charset=utf-8',
    });
  });
});

describe('changes racing each other', () => {
  it('eight concurrent updates of one publisher each answer 200, and its endpoints and pricing are those of one of them', async () => {
    const record = await createPublisher(t, owner.accessToken);
    const results = await Promise.all(
      [1, 2, 3, 4, 5, 6, 7, 8].map((i) =>
        t.api.patch(`/publishers/${record.slug}`, { endpoints: [{ method: 'GET', path: `/v${i}/only` }], pricing: [{ price_per_call: `0.00${i}` }] }, { token: owner.accessToken }),
      ),
    );
    expect(results.map((result) => result.status)).toEqual(Array(8).fill(200));
    const after = (await t.api.get(`/publishers/${record.slug}`)).body.data;
    expect(after.endpoints).toHaveLength(1);
    expect(after.pricing).toHaveLength(1);
    const winner = after.endpoints[0].path.match(/^\/v(\d)\/only$/)![1];
    expect(after.pricing[0].price_per_call).toBe(`0.00${winner}`);
  });
});

describe('PUT /publishers/{slug}/logo without a credential', () => {
  it('is 401 before the body is read: not 400 for a non-image, not 413 for a large one', async () => {
    const record = await createPublisher(t, owner.accessToken);
    for (const bytes of [Buffer.from('not an image'), Buffer.alloc(600 * 1024)]) {
      const response = await fetch(`${t.api.baseUrl}/publishers/${record.slug}/logo`, { method: 'PUT', headers: { 'content-type': 'image/png' }, body: bytes });
      expect(response.status).toBe(401);
    }
  });
});
