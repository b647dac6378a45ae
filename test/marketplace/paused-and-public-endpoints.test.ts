import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream-server.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { signUpVerified } from '../support/accounts.js';
import { createPublisher, publisherBody, uniqueSlug } from '../support/publishers.js';
import { fundedAgent } from '../support/funding.js';
import { checkLedgerAfterEach } from '../support/wallet.js';

let t: TestPlatform;
let upstream: FakeUpstream;
let ownerToken: string;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  t = await startTestPlatform({ PROXY_ALLOW_PRIVATE_UPSTREAMS: 'true', X402_PAY_TO: '0x2222222222222222222222222222222222222222' });
  ownerToken = (await signUpVerified(t)).accessToken;
});
afterAll(async () => {
  await t.close();
  await upstream.close();
});
checkLedgerAfterEach(() => t);

const listed = async (search: string) => ((await t.api.get(`/publishers?search=${encodeURIComponent(search)}`)).body.data as { slug: string }[]).map((p) => p.slug);

describe('an owner pauses a publisher with is_active', () => {
  it('a paused publisher is not listed and its calls answer 403 publisher_inactive, until it is resumed', async () => {
    const agent = await fundedAgent(t);
    const publisher = await createPublisher(t, ownerToken, { name: 'Pausable Tides', api_url: upstream.url });
    const paused = await t.api.patch(`/publishers/${publisher.slug}`, { is_active: false }, { token: ownerToken });
    expect(paused.status).toBe(200);
    expect(paused.body.data.is_active).toBe(false);
    expect(await listed('pausable tides')).not.toContain(publisher.slug);
    for (const call of [t.api.get(`/publishers/${publisher.slug}/v1/markets`, { token: agent.api_key }), t.api.post(`/publishers/${publisher.slug}/estimate`, {})]) {
      const answer = await call;
      expect(answer.status).toBe(403);
      expect(answer.body.error.code).toBe('publisher_inactive');
    }
    expect((await t.api.get(`/publishers/${publisher.slug}`)).body.data.is_active).toBe(false);

    expect((await t.api.patch(`/publishers/${publisher.slug}`, { is_active: true }, { token: ownerToken })).body.data.is_active).toBe(true);
    expect(await listed('pausable tides')).toContain(publisher.slug);
    expect((await t.api.get(`/publishers/${publisher.slug}/v1/markets`, { token: agent.api_key })).status).toBe(200);
  });

  it('is accepted at creation; read-only record fields in the body are ignored', async () => {
    const body = publisherBody({ is_active: false, id: '00000000-0000-4000-8000-000000000000', total_queries: 99, is_verified: true, created_at: '2020-01-01T00:00:00Z' });
    const created = await t.api.post('/publishers', body, { token: ownerToken });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ is_active: false, is_verified: false, total_queries: 0 });
    expect(created.body.data.id).not.toBe(body.id);
    expect(created.body.data.created_at).not.toBe(body.created_at);
  });

  it('a deleted publisher is gone for its owner too: it cannot be resumed', async () => {
    const publisher = await createPublisher(t, ownerToken);
    await t.api.delete(`/publishers/${publisher.slug}`, { token: ownerToken });
    expect((await t.api.patch(`/publishers/${publisher.slug}`, { is_active: true }, { token: ownerToken })).status).toBe(404);
  });
});

describe('public_anonymous endpoints', () => {
  const endpoints = [
    { method: 'GET', path: '/v1/markets', description: 'Free and public', access: 'public_anonymous' },
    { method: 'GET', path: '/v1/premium', description: 'Priced and public', access: 'public_anonymous', price: '0.02' },
    { method: 'GET', path: '/v1/private', description: 'Authenticated' },
  ];
  const pricing = [{ pricing_model: 'per_request', price_per_call: '0.01', price_per_get: '0.01', min_charge: '0.005' }];

  it('need no credential, and the general prices do not apply to them: one without its own price is free', async () => {
    const publisher = await createPublisher(t, ownerToken, { api_url: upstream.url, endpoints: [endpoints[0], endpoints[2]], pricing });
    const anonymous = await t.api.get(`/publishers/${publisher.slug}/v1/markets`);
    expect(anonymous.status).toBe(200);
    expect(anonymous.headers.get('x-charge-amount')).toBeNull();
    const agent = await fundedAgent(t, '1.00');
    const identified = await t.api.get(`/publishers/${publisher.slug}/v1/markets`, { token: agent.api_key });
    expect(identified.status).toBe(200);
    expect((await t.api.get('/wallet/balance', { token: agent.api_key })).body.data.balance).toBe('1.00');
    const estimate = await t.api.post(`/publishers/${publisher.slug}/estimate`, { path: '/v1/markets' });
    expect(estimate.body.data.estimated_cost).toBe('0.00');
    // An authenticated endpoint still asks for a credential.
    expect((await t.api.get(`/publishers/${publisher.slug}/v1/private`)).status).toBe(401);
  });

  it('a priced one is paid by an anonymous caller with x402 (402 with the call’s requirements), by an identified caller like any call', async () => {
    const publisher = await createPublisher(t, ownerToken, { api_url: upstream.url, endpoints, pricing, billing_model: 'x402_per_request', gateway_fee_percent: '0' });
    const anonymous = await t.api.get(`/publishers/${publisher.slug}/v1/premium`);
    expect(anonymous.status).toBe(402);
    expect(anonymous.body.accepts[0]).toMatchObject({ scheme: 'exact', maxAmountRequired: '20000' });
    const agent = await fundedAgent(t, '1.00');
    const paid = await t.api.get(`/publishers/${publisher.slug}/v1/premium`, { token: agent.api_key });
    expect(paid.status).toBe(200);
    expect(paid.headers.get('x-charge-amount')).toBe('0.02');
  });

  it('a publisher that prices a public endpoint without taking on-chain payment is refused at create and update, naming the endpoint', async () => {
    const refused = await t.api.post('/publishers', publisherBody({ api_url: upstream.url, endpoints, pricing, billing_model: 'prepaid_credits' }), { token: ownerToken });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('public_endpoint_not_payable');
    expect(refused.body.error.message).toContain('GET /v1/premium');

    const free = await createPublisher(t, ownerToken, { api_url: upstream.url, endpoints: [endpoints[0]], pricing, slug: uniqueSlug('free') });
    const update = await t.api.patch(`/publishers/${free.slug}`, { endpoints }, { token: ownerToken });
    expect(update.status).toBe(400);
    expect(update.body.error.message).toContain('GET /v1/premium');

    const onChain = await createPublisher(t, ownerToken, { api_url: upstream.url, endpoints, pricing, billing_model: 'x402_per_request' });
    const offChain = await t.api.patch(`/publishers/${onChain.slug}`, { billing_model: 'prepaid_credits' }, { token: ownerToken });
    expect(offChain.status).toBe(400);
    expect(offChain.body.error.code).toBe('public_endpoint_not_payable');
  });
});
