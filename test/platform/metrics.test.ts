import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream-server.js';
import { registerAgent, signUpVerified } from '../support/accounts.js';
import { fundWallet } from '../support/funding.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { createPublisher } from '../support/publishers.js';
import { checkLedgerAfterEach } from '../support/wallet.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { holdCallCharge, releaseCallCharge } from '../../subgraphs/marketplace/proxy/charging.js';
import { sampleOf as sample } from '../support/metrics-text.js';

const METRICS_TOKEN = randomBytes(24).toString('hex');
let t: TestPlatform;
let upstream: FakeUpstream;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  t = await startTestPlatform({ PROXY_ALLOW_PRIVATE_UPSTREAMS: 'true', METRICS_TOKEN });
});
afterAll(async () => {
  await t?.close();
  await upstream?.close();
});
checkLedgerAfterEach(() => t);

const scrape = async () => {
  const response = await t.api.get('/metrics', { token: METRICS_TOKEN });
  expect(response.status).toBe(200);
  return response.body as string;
};

/** Scrapes again and checks how the paid-call series grew since `before`; the new scrape and a growth reader for more checks. */
async function expectCalls(before: string, expected: { charged: number; released: number; chargedMicros: number; timed: number }) {
  const after = await scrape();
  const grew = (series: string) => (sample(after, series) ?? 0) - (sample(before, series) ?? 0);
  expect({
    charged: grew('acp_paid_calls_total{outcome="charged"}'),
    released: grew('acp_paid_calls_total{outcome="released"}'),
    chargedMicros: grew('acp_charged_microdollars_total'),
    timed: grew('acp_upstream_response_seconds_count'),
  }).toEqual(expected);
  return { after, grew };
}

describe('GET /metrics', () => {
  it('needs the metrics token, compared in full: no token and a wrong one are 401; it does not exist without one configured', async () => {
    expect([(await t.api.get('/metrics')).status, (await t.api.get('/metrics')).body.error.code]).toEqual([401, 'unauthorized']);
    expect((await t.api.get('/metrics', { token: METRICS_TOKEN.slice(0, -1) })).status).toBe(401);
    const agent = await registerAgent(t);
    expect((await t.api.get('/metrics', { token: agent.api_key })).status).toBe(401);
    const unconfigured = await startTestPlatform();
    try {
      const response = await unconfigured.api.get('/metrics', { token: METRICS_TOKEN });
      expect([response.status, response.body.error.code]).toEqual([404, 'route_not_found']);
    } finally {
      await unconfigured.close();
    }
  });

  it('counts paid calls by outcome and the money charged, requests by surface, and reads pending holds and unsettled payments', async () => {
    const owner = await signUpVerified(t);
    const pub = await createPublisher(t, owner.accessToken, {
      api_url: upstream.url,
      gateway_fee_percent: '10',
      endpoints: [
        { method: 'GET', path: '/echo/{thing}', description: 'Echo' },
        { method: 'GET', path: '/fail', description: 'Fails' },
      ],
      pricing: [{ pricing_model: 'per_request', price_per_call: '0.01' }],
    });
    const agent = await registerAgent(t);
    await fundWallet(t, agent.id, '1.00');
    const before = await scrape();
    expect((await t.api.get(`/publishers/${pub.slug}/echo/a`, { token: agent.api_key })).status).toBe(200);
    expect((await t.api.get(`/publishers/${pub.slug}/echo/b`, { token: agent.api_key })).status).toBe(200);
    expect((await t.api.get(`/publishers/${pub.slug}/fail`, { token: agent.api_key })).status).toBe(500);
    // A catalogue read beside the data plane is REST, not a paid call.
    expect((await t.api.get(`/publishers/${pub.slug}`)).status).toBe(200);
    const { after, grew } = await expectCalls(before, { charged: 2, released: 1, chargedMicros: 22_000, timed: 3 });
    expect(grew('acp_http_request_duration_seconds_count{surface="publishers",status_class="2xx"}')).toBe(2);
    expect(grew('acp_http_request_duration_seconds_count{surface="publishers",status_class="5xx"}')).toBe(1);
    // Every call waited for its hold; only the two charged ones for a post (the failed one was released).
    expect(grew('acp_paid_call_ledger_seconds_count{step="hold"}')).toBe(3);
    expect(grew('acp_paid_call_ledger_seconds_count{step="post"}')).toBe(2);
    expect(grew('acp_paid_call_ledger_seconds_sum{step="post"}')).toBeGreaterThan(0);
    expect(sample(after, 'acp_ledger_pending_holds')).toBe(0);
    expect(sample(after, 'acp_metrics_collect_errors_total{gauge="acp_ledger_pending_holds"}')).toBeUndefined();
    expect(sample(after, 'acp_x402_unsettled_payments{status="settle_unknown"}')).toBe(0);
    expect(sample(after, 'acp_x402_unsettled_payments{status="verified_stale"}')).toBe(0);
    expect(sample(after, 'acp_ledger_batched_items_total{statement="reserve",how="alone"}')).toBeGreaterThan(0);
    expect(sample(after, 'acp_process_cpu_seconds_total')).toBeGreaterThan(0);
  });

  it('times a hold the balance refused too, and no post for it', async () => {
    const owner = await signUpVerified(t);
    const pub = await createPublisher(t, owner.accessToken, { api_url: upstream.url, endpoints: [], pricing: [{ pricing_model: 'per_request', price_per_call: '0.01' }] });
    const agent = await registerAgent(t);
    const before = await scrape();
    const refused = await t.api.get(`/publishers/${pub.slug}/echo/a`, { token: agent.api_key });
    expect([refused.status, refused.body.error.code]).toEqual([402, 'insufficient_balance']);
    const { grew } = await expectCalls(before, { charged: 0, released: 0, chargedMicros: 0, timed: 0 });
    expect(grew('acp_paid_call_ledger_seconds_count{step="hold"}')).toBe(1);
    expect(grew('acp_paid_call_ledger_seconds_count{step="post"}')).toBe(0);
  });

  it('reports on-chain payments an operator must check: unknown ones, and those a crash left verified', async () => {
    const em = t.platform.services.orm.em.fork() as EntityManager;
    const nonce = () => `0x${randomUUID().replace(/-/g, '')}`;
    await em.execute(
      `insert into x402_payment (network, payer, nonce, amount, pay_to, resource, status, created_at)
       values ('eip155:84532', '0xaa', ?, 1, '0x0', 'r', 'verified', now() - interval '1 day'),
              ('eip155:84532', '0xaa', ?, 1, '0x0', 'r', 'verified', now()),
              ('eip155:84532', '0xaa', ?, 1, '0x0', 'r', 'settle_unknown', now())`,
      [nonce(), nonce(), nonce()],
    );
    try {
      const text = await scrape();
      expect(sample(text, 'acp_x402_unsettled_payments{status="verified_stale"}')).toBe(1);
      expect(sample(text, 'acp_x402_unsettled_payments{status="settle_unknown"}')).toBe(1);
    } finally {
      await em.execute(`delete from x402_payment where payer = '0xaa'`);
    }
  });

  it('counts calls the upstream never answered by error code, and releases their holds', async () => {
    const owner = await signUpVerified(t);
    const pub = await createPublisher(t, owner.accessToken, { api_url: 'http://127.0.0.1:9/', endpoints: [], pricing: [{ pricing_model: 'per_request', price_per_call: '0.01' }] });
    const agent = await registerAgent(t);
    await fundWallet(t, agent.id, '1.00');
    const before = await scrape();
    const response = await t.api.get(`/publishers/${pub.slug}/anything`, { token: agent.api_key });
    expect([response.status, response.body.error.code]).toEqual([502, 'upstream_unreachable']);
    const after = await scrape();
    const series = 'acp_upstream_failures_total{code="upstream_unreachable"}';
    expect((sample(after, series) ?? 0) - (sample(before, series) ?? 0)).toBe(1);
    expect((await t.api.get('/wallet/balance', { token: agent.api_key })).body.data).toMatchObject({ balance: '1.00', available: '1.00' });
  });

  it('counts a request whose caller left before the answer as cut short', async () => {
    const owner = await signUpVerified(t);
    const pub = await createPublisher(t, owner.accessToken, { api_url: upstream.url, endpoints: [{ method: 'GET', path: '/slow', description: 'Slow' }], pricing: [] });
    const before = await scrape();
    const series = 'acp_http_request_duration_seconds_count{surface="publishers",status_class="cut_short"}';
    const leaving = fetch(`${t.api.baseUrl}/publishers/${pub.slug}/slow`, { headers: { authorization: `Bearer ${owner.accessToken}` }, signal: AbortSignal.timeout(200) });
    await expect(leaving).rejects.toThrow();
    let after = await scrape();
    for (let waited = 0; sample(after, series) === sample(before, series) && waited < 3000; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      after = await scrape();
    }
    expect((sample(after, series) ?? 0) - (sample(before, series) ?? 0)).toBe(1);
  });

  it('counts tool calls like proxied calls, and reads a pending hold and its age', async () => {
    const owner = await signUpVerified(t);
    const tools = await createPublisher(t, owner.accessToken, {
      api_url: null,
      mcp_endpoint: `${upstream.url}/mcp`,
      publisher_category: 'compute',
      compute_type: 'function',
      integration_type: null,
      gateway_fee_percent: '0',
      endpoints: [],
      pricing: [{ pricing_model: 'per_request', price_per_execution: '0.03' }],
    });
    const agent = await registerAgent(t);
    await fundWallet(t, agent.id, '1.00');
    const before = await scrape();
    expect((await t.api.post(`/publishers/${tools.slug}/add`, { a: 1, b: 2 }, { token: agent.api_key })).status).toBe(200);
    expect((await t.api.post(`/publishers/${tools.slug}/fail`, {}, { token: agent.api_key })).status).toBe(502);
    const em = t.platform.services.orm.em.fork() as EntityManager;
    const hold = await holdCallCharge(em, { callId: randomUUID(), userId: agent.id, publisherId: tools.id, amount: 1000n, metadata: {} });
    try {
      await em.execute(`update ledger_transfer set created_at = now() - interval '90 seconds' where id = ?`, [hold.parts[0].pendingId]);
      const { after } = await expectCalls(before, { charged: 1, released: 1, chargedMicros: 30_000, timed: 2 });
      expect(sample(after, 'acp_ledger_pending_holds')).toBe(1);
      expect(sample(after, 'acp_ledger_oldest_pending_hold_seconds')).toBeGreaterThanOrEqual(90);
    } finally {
      await releaseCallCharge(em, hold, 'test');
    }
  });
});
