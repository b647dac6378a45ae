import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { signUpVerified } from '../support/accounts.js';
import { createPublisher } from '../support/publishers.js';

let t: TestPlatform;
let quotes: Record<string, any>;
let warehouse: Record<string, any>;
beforeAll(async () => {
  t = await startTestPlatform({ STRIPE_SECRET_KEY: 'sk_test_configured', X402_NETWORK: 'base-sepolia' });
  const owner = await signUpVerified(t);
  // price_per_call 0.001, price_per_post 0.01, min_charge 0.0005, markup 1.2, gateway fee 2.5 %
  quotes = await createPublisher(t, owner.accessToken);
  warehouse = await createPublisher(t, owner.accessToken, {
    publisher_category: 'database', endpoints: undefined, gateway_fee_percent: '0',
    pricing: [{ pricing_model: 'per_row', base_price_per_1000_rows: '0.02', min_charge: '0.001' }],
  });
});
afterAll(() => t.close());

const estimate = (publisher: Record<string, any>, body: Record<string, unknown>) =>
  t.api.post(`/publishers/${publisher.slug}/estimate`, { publisher_id: publisher.id, query: 'q', ...body });

describe('estimating a call', () => {
  it('prices by method with markup and the gateway fee on top, without a credential', async () => {
    const response = await estimate(quotes, { method: 'POST', path: '/v1/batch' });
    expect(response.status).toBe(200);
    // 0.01 * 1.2 = 0.012; fee 2.5 % = 0.0003
    expect(response.body.data).toEqual({
      estimated_cost: '0.0123', currency: 'USD', pricing_model: 'per_request',
      breakdown: { base: '0.01', markup: '0.002', gateway_fee: '0.0003', minimum_applied: false },
    });
  });

  it("uses the matched endpoint's own price first", async () => {
    const response = await estimate(quotes, { method: 'GET', path: '/v1/quotes/AAPL' });
    expect(response.body.data.breakdown.base).toBe('0.002');
  });

  it('falls back to price_per_call and applies min_charge for per_row pricing', async () => {
    expect((await estimate(quotes, { method: 'GET', path: '/v1/unknown' })).body.data.breakdown.base).toBe('0.001');
    const few = await estimate(warehouse, { rows: 10 });
    expect(few.body.data).toMatchObject({ estimated_cost: '0.001', pricing_model: 'per_row', breakdown: { minimum_applied: true } });
    expect((await estimate(warehouse, { rows: 5000 })).body.data.estimated_cost).toBe('0.10');
  });

  it('refuses, as the proxy would, a path it would not take, one default_deny leaves out and a protected endpoint however spelled; a database query has no path to refuse', async () => {
    const owner = await signUpVerified(t);
    const endpoints = [
      { method: 'GET', path: '/v1/quotes/{symbol}', description: 'Quote', price: '0.002' },
      { method: 'DELETE', path: '/v1/admin', description: 'Admin', is_protected: true, protection_reason: 'Operators only' },
    ];
    const guarded = await createPublisher(t, owner.accessToken, { undocumented_endpoint_policy: 'default_deny', endpoints });
    const open = await createPublisher(t, owner.accessToken, { endpoints });
    expect((await estimate(guarded, { method: 'GET', path: '/v1/quotes/AAPL' })).body.data.breakdown.base).toBe('0.002');
    const undocumented = await estimate(guarded, { method: 'GET', path: '/v1/unknown' });
    expect([undocumented.status, undocumented.body.error.code]).toEqual([403, 'endpoint_not_allowed']);
    const respelled = await estimate(guarded, { method: 'GET', path: '/V1/QUOTES/AAPL' });
    expect([respelled.status, respelled.body.error.code]).toEqual([403, 'endpoint_not_allowed']);
    const protectedCall = await estimate(guarded, { method: 'DELETE', path: '/v1/admin' });
    expect([protectedCall.status, protectedCall.body.error]).toEqual([403, { code: 'endpoint_protected', message: 'Operators only' }]);
    const disguised = await estimate(open, { method: 'DELETE', path: '/V1/%41dmin' });
    expect([disguised.status, disguised.body.error.code]).toEqual([403, 'endpoint_protected']);
    expect((await estimate(open, { method: 'GET', path: '/v1/unknown' })).status).toBe(200);
    for (const path of ['/v1/quotes/../admin', '/v1/%2e%2e/admin', 'v1/quotes/AAPL']) {
      const vetted = await estimate(guarded, { method: 'GET', path });
      expect([vetted.status, vetted.body.error.code]).toEqual([400, 'invalid_path']);
    }
    // Without a path the call is the root resource, as the proxy routes it: not an endpoint of this publisher.
    const root = await estimate(guarded, { method: 'POST' });
    expect([root.status, root.body.error.code]).toEqual([403, 'endpoint_not_allowed']);
  });

  it('refuses a publisher_id that does not match the slug with 400 (one left out is fine) and an unknown slug with 404', async () => {
    const mismatch = await t.api.post(`/publishers/${quotes.slug}/estimate`, { publisher_id: warehouse.id, query: 'q' });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error.code).toBe('publisher_mismatch');
    const missing = await t.api.post('/publishers/nobody-here/estimate', { publisher_id: quotes.id, query: 'q' });
    expect(missing.status).toBe(404);
    // The slug alone names the publisher: publisher_id may be left out.
    expect((await t.api.post(`/publishers/${quotes.slug}/estimate`, { query: 'q' })).status).toBe(200);
    const method = await estimate(quotes, { method: 'TRACE' });
    expect(method.status).toBe(400);
    expect(method.body.error.code).toBe('invalid_method');
  });
});

describe('payment options', () => {
  it('lists the prepaid wallet, card checkout when Stripe is configured, and x402 with network and asset', async () => {
    const response = await t.api.get('/payments/supported');
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      prepaid_wallet: { enabled: true, currency: 'USD' },
      card: { enabled: true, provider: 'stripe', max_deposit_usd: '100.00' },
      x402: {
        enabled: true, versions: [1, 2],
        schemes: [{ scheme: 'exact', network: 'base-sepolia', network_id: 'eip155:84532', asset: '0x036CbD53842c5426634e7929541eC2318f3dCF7e', asset_symbol: 'USDC' }],
      },
    });
  });
});
