import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { EntityManager } from '@mikro-orm/postgresql';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream-server.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { registerAgent, signUpVerified } from '../support/accounts.js';
import { createPublisher } from '../support/publishers.js';
import { fundPrepaid, fundWallet } from '../support/funding.js';
import { withInsertsRefused } from '../support/database-faults.js';
import { checkLedgerAfterEach } from '../support/wallet.js';
import { usageCountersOf } from '../../subgraphs/marketplace/proxy/usage-counters-of.js';
import { nothingCharged } from '../../subgraphs/marketplace/proxy/nothing-charged.js';
import type { AppError } from '../../shared/errors.js';
import { BlockedDestinationError } from '../../shared/http/ssrf-guard.js';
import { UsageCounters } from '../../subgraphs/marketplace/proxy/usage-counters.js';
import { forgetPublisherForCall, publisherForCall } from '../../subgraphs/marketplace/services/load-publisher-for-call.js';

let t: TestPlatform;
let upstream: FakeUpstream;
let ownerToken: string;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  t = await startTestPlatform({ PROXY_ALLOW_PRIVATE_UPSTREAMS: 'true', PROXY_TIMEOUT_MS: '1000' });
  ownerToken = (await signUpVerified(t)).accessToken;
});
afterAll(async () => {
  await t.close();
  await upstream.close();
});
checkLedgerAfterEach(() => t);

/** What the publisher's payable accounts hold, in micro-dollars. */
async function publisherEarnings(publisherId: string): Promise<string> {
  const em = t.platform.services.orm.em.fork() as EntityManager;
  const [payable] = await em.execute(
    `select sum(credits_posted - debits_posted) as balance from ledger_account where kind = 'publisher_payable' and publisher_id = ?`,
    [publisherId],
  );
  return String(payable.balance);
}

/** A publisher's counters as stored now: through GraphQL, since the REST page may be a cached copy (PUBLIC_ANSWER_CACHE_SECONDS). */
async function countsOf(slug: string) {
  const query = 'query($slug: String!) { publisher(slug: $slug) { totalQueries uniqueAgentsServed totalRevenueAtomic } }';
  const { totalQueries, uniqueAgentsServed, totalRevenueAtomic } = (await t.api.post('/graphql', { query, variables: { slug } })).body.data.publisher;
  return { total_queries: totalQueries, unique_agents_served: uniqueAgentsServed, total_revenue_atomic: totalRevenueAtomic };
}

const walletOf = async (key: string) => (await t.api.get('/wallet/balance', { token: key })).body.data;
const balanceOf = async (key: string) => (await walletOf(key)).balance as string;

/** A publisher on the fake upstream: per-call 0.01 (0.02 for POST), 10% gateway fee. */
async function publisher(overrides: Record<string, unknown> = {}) {
  return createPublisher(t, ownerToken, {
    api_url: upstream.url,
    api_key_header: 'X-Api-Key',
    upstream_api_key: 'sk_upstream_secret',
    gateway_fee_percent: '10',
    endpoints: [
      { method: 'GET', path: '/echo/{thing}', description: 'Echo' },
      { method: 'GET', path: '/echo/priced/{thing}', description: 'Priced', price: '0.05' },
      { method: 'GET', path: '/echo/public', description: 'Public', access: 'public_anonymous' },
      { method: 'GET', path: '/echo/secret', description: 'Off limits', is_protected: true, protection_reason: 'Admin only' },
      { method: 'GET', path: '/sse', description: 'Stream' },
      { method: 'GET', path: '/slow', description: 'Slow' },
      { method: 'GET', path: '/fail', description: 'Fails' },
      { method: 'GET', path: '/not-found', description: 'Missing' },
      { method: 'POST', path: '/echo/{thing}', description: 'Echo body' },
    ],
    pricing: [{ pricing_model: 'per_request', price_per_call: '0.01', price_per_post: '0.02' }],
    ...overrides,
  });
}

/** pay_per_use: the cost is read from the answer's usage.cost (the fake upstream's /usage?cost=); undocumented paths are allowed. */
const payPerUsePublisher = (pricing: Record<string, unknown>) =>
  publisher({
    billing_model: 'pay_per_use',
    upstream_cost_response_path: 'usage.cost',
    endpoints: [{ method: 'GET', path: '/usage', description: 'Metered' }],
    pricing: [{ pricing_model: 'per_request', ...pricing }],
  });

/** The wallet balance once it reads `expected`, or after 3 s (a refund lands after the caller's connection was cut). */
async function balanceOnceSettled(key: string, expected: string): Promise<string> {
  let balance = await balanceOf(key);
  for (let waited = 0; balance !== expected && waited < 3000; waited += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    balance = await balanceOf(key);
  }
  return balance;
}

async function fundedAgent(amount = '1.00') {
  const agent = await registerAgent(t, { name: 'caller' });
  await fundWallet(t, agent.id, amount);
  return agent;
}

describe('forwarding', () => {
  it('injects the upstream credential, keeps the caller’s Authorization away, and returns the upstream answer unchanged', async () => {
    const pub = await publisher();
    const agent = await fundedAgent();
    const response = await t.api.get(`/publishers/${pub.slug}/echo/hello?x=1&y=two`, { token: agent.api_key, headers: { cookie: 'a=b' } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ method: 'GET', path: '/echo/hello', query: { x: '1', y: 'two' } });
    expect(response.body.headers['x-api-key']).toBe('sk_upstream_secret');
    expect(response.body.headers.authorization).toBeUndefined();
    expect(response.body.headers.cookie).toBeUndefined();
    expect(response.body.data).toBeUndefined();
    expect(response.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
  });

  it('forwards request bodies and methods', async () => {
    const pub = await publisher();
    const agent = await fundedAgent();
    const response = await t.api.post(`/publishers/${pub.slug}/echo/body`, { hello: 'world' }, { token: agent.api_key });
    expect(response.body).toMatchObject({ method: 'POST', path: '/echo/body', body: '{"hello":"world"}' });
    expect(response.body.headers['content-type']).toBe('application/json');
  });

  it('streams an event stream event by event', async () => {
    const pub = await publisher();
    const agent = await fundedAgent();
    const response = await fetch(`${t.api.baseUrl}/publishers/${pub.slug}/sse?gap=300`, { headers: { authorization: `Bearer ${agent.api_key}` } });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('x-charge-amount')).toBe('0.011');
    const reader = response.body!.getReader();
    const first = await reader.read();
    const arrivedAlone = new TextDecoder().decode(first.value);
    expect(arrivedAlone).toBe('data: event 1\n\n');
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += new TextDecoder().decode(chunk.value);
    expect(rest).toBe('data: event 2\n\ndata: event 3\n\n');
  });

  it('passes a fixed-length body on with its Content-Length, byte for byte', async () => {
    const pub = await publisher();
    const agent = await fundedAgent();
    const direct = await fetch(`${upstream.url}/echo/sized`);
    const response = await fetch(`${t.api.baseUrl}/publishers/${pub.slug}/echo/sized`, { headers: { authorization: `Bearer ${agent.api_key}` } });
    const body = await response.text();
    expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength(body)));
    expect(response.headers.get('transfer-encoding')).toBeNull();
    expect(JSON.parse(body)).toMatchObject({ method: 'GET', path: '/echo/sized' });
    expect(direct.headers.get('content-length')).not.toBeNull();
  });

  it('cuts the caller off when the upstream dies mid-body, and gives the charge back: a broken answer is not successful work', async () => {
    const pub = await publisher({ undocumented_endpoint_policy: 'default_allow' });
    const agent = await fundedAgent('1.00');
    const response = await fetch(`${t.api.baseUrl}/publishers/${pub.slug}/truncated`, { headers: { authorization: `Bearer ${agent.api_key}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-charge-amount')).toBe('0.011');
    await expect(response.text()).rejects.toThrow();
    expect(await balanceOnceSettled(agent.api_key, '1.00')).toBe('1.00');
    const transactions = (await t.api.get('/wallet/transactions', { token: agent.api_key })).body.data;
    expect(transactions.find((tx: any) => tx.type === 'refund')).toMatchObject({
      direction: 'credit',
      amount: '0.011',
      metadata: { reason: 'upstream_broke_off', charge_id: response.headers.get('x-charge-id') },
    });
    expect(await publisherEarnings(pub.id)).toBe('0');
    await usageCountersOf(t.platform.services).flush();
    expect(await countsOf(pub.slug)).toMatchObject({ total_queries: 1, total_revenue_atomic: 0 });
    const chunked = await fetch(`${t.api.baseUrl}/publishers/${pub.slug}/truncated?chunked=1`, { headers: { authorization: `Bearer ${agent.api_key}` } });
    expect(chunked.headers.get('content-length')).toBeNull();
    await expect(chunked.text()).rejects.toThrow();
    expect(await balanceOnceSettled(agent.api_key, '1.00')).toBe('1.00');
  });

  it('refunds a stream the upstream breaks off before its first byte, and keeps the charge of one that had been flowing', async () => {
    const pub = await publisher();
    const agent = await fundedAgent('1.00');
    const stream = (query: string) => fetch(`${t.api.baseUrl}/publishers/${pub.slug}/sse?${query}`, { headers: { authorization: `Bearer ${agent.api_key}` } });
    const empty = await stream('events=0&break=1');
    expect(empty.headers.get('x-charge-amount')).toBe('0.011');
    await expect(empty.text()).rejects.toThrow();
    expect(await balanceOnceSettled(agent.api_key, '1.00')).toBe('1.00');
    const flowing = await stream('events=2&gap=20&break=1');
    const reader = flowing.body!.getReader();
    let received = '';
    const readAll = async () => {
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) received += new TextDecoder().decode(chunk.value);
    };
    await expect(readAll()).rejects.toThrow();
    expect(received).toContain('data: event 1\n\n');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await balanceOf(agent.api_key)).toBe('0.989');
  });

  it('closes the upstream stream when the caller goes away', async () => {
    const pub = await publisher();
    const agent = await fundedAgent();
    const abandonedBefore = upstream.abandonedStreams;
    const caller = new AbortController();
    const response = await fetch(`${t.api.baseUrl}/publishers/${pub.slug}/sse?gap=50&events=100`, {
      headers: { authorization: `Bearer ${agent.api_key}` },
      signal: caller.signal,
    });
    await response.body!.getReader().read();
    caller.abort();
    for (let waited = 0; upstream.abandonedStreams === abandonedBefore && waited < 3000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(upstream.abandonedStreams).toBe(abandonedBefore + 1);
    // The answer was flowing when the caller chose to leave: the call stays charged.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await balanceOf(agent.api_key)).toBe('0.989');
  });
});

describe('charging', () => {
  it('charges price plus fee, says so in headers, and lists the charge in the wallet', async () => {
    const pub = await publisher();
    const agent = await fundedAgent('1.00');
    const response = await t.api.get(`/publishers/${pub.slug}/echo/a`, { token: agent.api_key });
    expect(response.headers.get('x-charge-amount')).toBe('0.011');
    expect(response.headers.get('x-balance-remaining')).toBe('0.989');
    expect(response.headers.get('x-charge-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(await balanceOf(agent.api_key)).toBe('0.989');
    const priced = await t.api.get(`/publishers/${pub.slug}/echo/priced/b`, { token: agent.api_key });
    expect(priced.headers.get('x-charge-amount')).toBe('0.055');
    const post = await t.api.post(`/publishers/${pub.slug}/echo/c`, {}, { token: agent.api_key });
    expect(post.headers.get('x-charge-amount')).toBe('0.022');
    expect(await balanceOf(agent.api_key)).toBe('0.912');
    const transactions = (await t.api.get('/wallet/transactions', { token: agent.api_key })).body.data;
    const charge = transactions.find((tx: any) => tx.id === response.headers.get('x-charge-id'));
    expect(charge).toMatchObject({ direction: 'debit', amount: '-0.011', metadata: { publisher_slug: pub.slug, endpoint: 'GET /echo/{thing}', status: 200 } });
  });

  it('pays the publisher the price and the platform the fee', async () => {
    const pub = await publisher();
    const agent = await fundedAgent();
    await t.api.get(`/publishers/${pub.slug}/echo/a`, { token: agent.api_key });
    expect(await publisherEarnings(pub.id)).toBe('10000');
  });

  it('spends prepaid credits with the publisher before the wallet', async () => {
    const pub = await publisher();
    const agent = await fundedAgent('1.00');
    await fundPrepaid(t, agent.id, pub.id, '0.02');
    await t.api.get(`/publishers/${pub.slug}/echo/1`, { token: agent.api_key });
    expect(await balanceOf(agent.api_key)).toBe('1.00');
    // The 0.009 left pays most of the next call; the wallet pays the rest.
    await t.api.get(`/publishers/${pub.slug}/echo/2`, { token: agent.api_key });
    expect(await walletOf(agent.api_key)).toMatchObject({ balance: '0.998', prepaid_credits: [{ balance: '0.00' }] });
  });

  it('spends a prepaid remainder smaller than the call, and the rest from the wallet, down to the last micro-dollar', async () => {
    const pub = await publisher();
    const agent = await fundedAgent('1.00');
    await fundPrepaid(t, agent.id, pub.id, '0.005');
    const response = await t.api.get(`/publishers/${pub.slug}/echo/split`, { token: agent.api_key });
    expect(response.status).toBe(200);
    expect([response.headers.get('x-charge-amount'), response.headers.get('x-balance-remaining')]).toEqual(['0.011', '0.994']);
    expect(await walletOf(agent.api_key)).toMatchObject({ balance: '0.994', pending: '0.00', prepaid_credits: [{ publisher_id: pub.id, balance: '0.00' }] });
    expect(await publisherEarnings(pub.id)).toBe('10000');
    const charges = (await t.api.get('/wallet/transactions', { token: agent.api_key })).body.data.filter((tx: any) => tx.type === 'charge');
    expect(charges.map((tx: any) => tx.amount).sort()).toEqual(['-0.005', '-0.006']);
  });

  it('a split hold is released whole when the call fails, and refunded to both accounts when the answer breaks off', async () => {
    const pub = await publisher({ undocumented_endpoint_policy: 'default_allow' });
    const agent = await fundedAgent('1.00');
    await fundPrepaid(t, agent.id, pub.id, '0.004');
    expect((await t.api.get(`/publishers/${pub.slug}/fail`, { token: agent.api_key })).status).toBe(500);
    expect(await walletOf(agent.api_key)).toMatchObject({ balance: '1.00', pending: '0.00', prepaid_credits: [{ balance: '0.004' }] });
    const broken = await fetch(`${t.api.baseUrl}/publishers/${pub.slug}/truncated`, { headers: { authorization: `Bearer ${agent.api_key}` } });
    expect(broken.headers.get('x-charge-amount')).toBe('0.011');
    await expect(broken.text()).rejects.toThrow();
    expect(await balanceOnceSettled(agent.api_key, '1.00')).toBe('1.00');
    expect(await walletOf(agent.api_key)).toMatchObject({ pending: '0.00', prepaid_credits: [{ balance: '0.004' }] });
    expect(await publisherEarnings(pub.id)).toBe('0');
  });

  it('a split charge the ledger refuses half-way moves nothing: both parts are posted together or not at all', async () => {
    const pub = await publisher();
    const agent = await fundedAgent('1.00');
    await fundPrepaid(t, agent.id, pub.id, '0.005');
    const em = t.platform.services.orm.em.fork() as EntityManager;
    const refused = await withInsertsRefused(em, { table: 'ledger_transfer', when: `new.idempotency_key like '%:capture:rest'` }, () =>
      t.api.get(`/publishers/${pub.slug}/echo/half`, { token: agent.api_key }),
    );
    expect(refused.status).toBe(500);
    expect(await walletOf(agent.api_key)).toMatchObject({ balance: '1.00', pending: '0.00', prepaid_credits: [{ balance: '0.005' }] });
    expect(await publisherEarnings(pub.id)).toBe('0');
  });

  it('pay_per_use on a split hold posts prepaid credits first and releases the wallet part it did not need', async () => {
    const pub = await payPerUsePublisher({ price_per_call: '0.01', reserve_max_charge: '0.10' });
    const agent = await fundedAgent('1.00');
    await fundPrepaid(t, agent.id, pub.id, '0.05');
    // Reported cost 0.02, plus the 10% fee: 0.022, all of it from the prepaid part of the 0.10 hold.
    const response = await t.api.get(`/publishers/${pub.slug}/usage?cost=0.02`, { token: agent.api_key });
    expect(response.headers.get('x-charge-amount')).toBe('0.022');
    expect(await walletOf(agent.api_key)).toMatchObject({ balance: '1.00', pending: '0.00', prepaid_credits: [{ balance: '0.028' }] });
  });

  it('racing calls share prepaid credits and wallet exactly: 0.02 + 0.02 pays three calls of 0.011, never a fourth', async () => {
    const pub = await publisher();
    const agent = await fundedAgent('0.02');
    await fundPrepaid(t, agent.id, pub.id, '0.02');
    const responses = await Promise.all(Array.from({ length: 10 }, (_, i) => t.api.get(`/publishers/${pub.slug}/echo/race-${i}`, { token: agent.api_key })));
    expect(responses.map((response) => response.status).sort()).toEqual([200, 200, 200, 402, 402, 402, 402, 402, 402, 402]);
    const wallet = await walletOf(agent.api_key);
    expect(BigInt(Math.round(Number(wallet.balance) * 1e6)) + BigInt(Math.round(Number(wallet.prepaid_credits[0].balance) * 1e6))).toBe(7_000n);
    expect(wallet.pending).toBe('0.00');
    expect(await publisherEarnings(pub.id)).toBe('30000');
  });

  it('answers 402 when the balance cannot cover the price, and the upstream receives nothing', async () => {
    const pub = await publisher();
    const agent = await registerAgent(t, { name: 'broke' });
    const before = upstream.requests.length;
    const response = await t.api.get(`/publishers/${pub.slug}/echo/a`, { token: agent.api_key });
    expect(response.status).toBe(402);
    expect(response.body.error).toEqual({
      code: 'insufficient_balance',
      message: 'This call needs 0.011 USD available (price and fee, or the most it can cost); the balance does not cover it',
    });
    expect(upstream.requests.length).toBe(before);
  });

  it.each([
    ['a 500', '/fail', 500],
    ['a 404', '/not-found', 404],
    ['a timeout', '/slow?ms=3000', 504],
  ])('charges nothing for %s', async (_label, path, status) => {
    const pub = await publisher();
    const agent = await fundedAgent('1.00');
    const response = await t.api.get(`/publishers/${pub.slug}${path}`, { token: agent.api_key });
    expect(response.status).toBe(status);
    expect(response.headers.get('x-charge-id')).toBeNull();
    // The upstream's own answer passes unchanged; an answer the platform gives says nothing was charged.
    if (status === 504) expect(response.body.error).toEqual({ code: 'upstream_timeout', message: 'The upstream did not answer in time; nothing was charged' });
    expect(await balanceOf(agent.api_key)).toBe('1.00');
  });

  it('charges nothing and releases the hold when the caller leaves before the upstream answers', async () => {
    const pub = await publisher();
    const agent = await fundedAgent('1.00');
    const caller = new AbortController();
    const call = fetch(`${t.api.baseUrl}/publishers/${pub.slug}/slow?ms=400`, { headers: { authorization: `Bearer ${agent.api_key}` }, signal: caller.signal });
    setTimeout(() => caller.abort(), 150);
    await expect(call).rejects.toThrow();
    let wallet = (await t.api.get('/wallet/balance', { token: agent.api_key })).body.data;
    for (let waited = 0; wallet.pending !== '0.00' && waited < 3000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      wallet = (await t.api.get('/wallet/balance', { token: agent.api_key })).body.data;
    }
    expect(wallet).toMatchObject({ balance: '1.00', pending: '0.00', available: '1.00' });
  });

  it('charges nothing when the upstream cannot be reached (502)', async () => {
    const pub = await publisher({ api_url: 'http://127.0.0.1:9/' });
    const agent = await fundedAgent('1.00');
    const response = await t.api.get(`/publishers/${pub.slug}/echo/a`, { token: agent.api_key });
    expect(response.status).toBe(502);
    expect(response.body.error.code).toBe('upstream_unreachable');
    expect(await balanceOf(agent.api_key)).toBe('1.00');
  });

  it('pay_per_use charges the reported cost plus fee, capped at the reserve, with a fallback when no cost is reported', async () => {
    const pub = await payPerUsePublisher({ price_per_call: '0.01', reserve_max_charge: '0.10', unresolved_fallback_charge: '0.03' });
    const agent = await fundedAgent('1.00');
    const reported = await t.api.get(`/publishers/${pub.slug}/usage?cost=0.02`, { token: agent.api_key });
    expect(reported.headers.get('x-charge-amount')).toBe('0.022');
    const capped = await t.api.get(`/publishers/${pub.slug}/usage?cost=5`, { token: agent.api_key });
    expect(capped.headers.get('x-charge-amount')).toBe('0.10');
    const unresolved = await t.api.get(`/publishers/${pub.slug}/usage`, { token: agent.api_key });
    expect(unresolved.headers.get('x-charge-amount')).toBe('0.033');
    expect(await balanceOf(agent.api_key)).toBe('0.845');
  });

  it('pay_per_use: a capped charge keeps the fee at its share, so the publisher earns the cap less the fee', async () => {
    const pub = await payPerUsePublisher({ price_per_call: '1', reserve_max_charge: '1.10' });
    const agent = await fundedAgent('5.00');
    const capped = await t.api.get(`/publishers/${pub.slug}/usage?cost=5`, { token: agent.api_key });
    expect(capped.headers.get('x-charge-amount')).toBe('1.10');
    expect(await publisherEarnings(pub.id)).toBe('1000000');
  });

  it('pay_per_use: an answer that stalls, trickles or breaks off before its cost is read is 504 / 502 and costs nothing', async () => {
    const pub = await payPerUsePublisher({ price_per_call: '0.01', reserve_max_charge: '0.10' });
    const agent = await fundedAgent('1.00');
    const stalled = await t.api.get(`/publishers/${pub.slug}/stall`, { token: agent.api_key });
    expect([stalled.status, stalled.body.error.code]).toEqual([504, 'upstream_timeout']);
    const trickling = await t.api.get(`/publishers/${pub.slug}/trickle`, { token: agent.api_key });
    expect([trickling.status, trickling.body.error.code]).toEqual([504, 'upstream_timeout']);
    const broken = await t.api.get(`/publishers/${pub.slug}/truncated`, { token: agent.api_key });
    expect([broken.status, broken.body.error.code]).toEqual([502, 'upstream_unreachable']);
    expect(broken.body.error.message).toMatch(/; nothing was charged$/);
    const wallet = (await t.api.get('/wallet/balance', { token: agent.api_key })).body.data;
    expect(wallet).toMatchObject({ balance: '1.00', pending: '0.00' });
  });

  it('200 parallel calls from a wallet that covers 50: exactly 50 reach the upstream and succeed, 150 get 402', async () => {
    const pub = await publisher({ endpoints: [{ method: 'GET', path: '/echo/{thing}', description: 'Echo' }], gateway_fee_percent: '0' });
    const agent = await fundedAgent('0.50');
    const before = upstream.requests.filter((r) => r.path.startsWith('/echo/race')).length;
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => t.api.get(`/publishers/${pub.slug}/echo/race-${i}`, { token: agent.api_key })),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(50);
    expect(statuses.filter((s) => s === 402)).toHaveLength(150);
    expect(upstream.requests.filter((r) => r.path.startsWith('/echo/race')).length - before).toBe(50);
    expect(await balanceOf(agent.api_key)).toBe('0.00');
  });

  it('an error that says nothing was charged keeps the original, with its class and stack, as its cause', () => {
    const original = new BlockedDestinationError('10.0.0.1');
    const told = nothingCharged(original) as AppError;
    expect([told.status, told.code, told.message]).toEqual([502, 'upstream_address_blocked', `${original.message}; nothing was charged`]);
    expect(told.cause).toBe(original);
  });
});

describe('access policy', () => {
  it('default_deny refuses undocumented paths; default_allow forwards them', async () => {
    const denying = await publisher({ undocumented_endpoint_policy: 'default_deny' });
    const allowing = await publisher({ undocumented_endpoint_policy: 'default_allow' });
    const agent = await fundedAgent();
    const denied = await t.api.get(`/publishers/${denying.slug}/elsewhere`, { token: agent.api_key });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('endpoint_not_allowed');
    expect((await t.api.get(`/publishers/${allowing.slug}/elsewhere`, { token: agent.api_key })).status).toBe(200);
  });

  it('a publisher without an endpoint list (a database publisher) under default_deny takes its root resource only', async () => {
    const database = { publisher_category: 'database', database_type: 'postgres', endpoints: undefined };
    const denying = await publisher({ ...database, undocumented_endpoint_policy: 'default_deny' });
    const allowing = await publisher({ ...database, undocumented_endpoint_policy: 'default_allow' });
    expect(denying.endpoints).toBeNull();
    const agent = await fundedAgent();
    expect((await t.api.post(`/publishers/${denying.slug}`, { query: 'select 1' }, { token: agent.api_key })).status).toBe(200);
    const denied = await t.api.get(`/publishers/${denying.slug}/admin/users`, { token: agent.api_key });
    expect([denied.status, denied.body.error.code]).toEqual([403, 'endpoint_not_allowed']);
    const estimate = await t.api.post(`/publishers/${denying.slug}/estimate`, { publisher_id: denying.id, method: 'GET', path: '/admin/users' });
    expect([estimate.status, estimate.body.error.code]).toEqual([403, 'endpoint_not_allowed']);
    expect((await t.api.get(`/publishers/${allowing.slug}/admin/users`, { token: agent.api_key })).status).toBe(200);
  });

  it('judges the path the upstream will see: dot segments, backslashes and encoded slashes are refused before anything moves', async () => {
    const pub = await publisher({ undocumented_endpoint_policy: 'default_deny' });
    const agent = await fundedAgent('1.00');
    const before = upstream.requests.length;
    for (const path of ['/echo/public/../secret', '/echo/public/%2e%2E/secret', '/echo/public/..\\secret', '/echo/public%2F..%2Fsecret', '/echo/%2e%2e/%2e%2e/elsewhere']) {
      const response = await t.api.requestAsWritten('GET', `/publishers/${pub.slug}${path}`, { token: agent.api_key });
      expect([path, response.status, response.body.error.code]).toEqual([path, 400, 'invalid_path']);
    }
    expect(upstream.requests.length).toBe(before);
    expect(await balanceOf(agent.api_key)).toBe('1.00');
  });

  it('matches other spellings of a path to the same endpoint: protected stays protected in any case or encoding, priced stays priced', async () => {
    const pub = await publisher({ undocumented_endpoint_policy: 'default_allow' });
    const agent = await fundedAgent('1.00');
    for (const spelling of ['/echo/s%65cret', '/echo/SECRET', '/Echo/secret;v=1', '/echo/%53ECRET']) {
      const protectedOne = await t.api.requestAsWritten('GET', `/publishers/${pub.slug}${spelling}`, { token: agent.api_key });
      expect([spelling, protectedOne.status, protectedOne.body.error.code]).toEqual([spelling, 403, 'endpoint_protected']);
    }
    const priced = await t.api.requestAsWritten('GET', `/publishers/${pub.slug}/%65cho/priced/x`, { token: agent.api_key });
    expect(priced.headers.get('x-charge-amount')).toBe('0.055');
  });

  it('another letter case never makes a call cheaper nor anonymous, and does not pass default_deny', async () => {
    const pub = await publisher({ undocumented_endpoint_policy: 'default_allow' });
    const agent = await fundedAgent('1.00');
    // An upstream that ignores case would serve the 0.05 endpoint here: it is charged as that endpoint.
    const priced = await t.api.get(`/publishers/${pub.slug}/ECHO/Priced/x`, { token: agent.api_key });
    expect([priced.status, priced.headers.get('x-charge-amount')]).toEqual([200, '0.055']);
    const estimate = await t.api.post(`/publishers/${pub.slug}/estimate`, { publisher_id: pub.id, query: 'x', method: 'GET', path: '/ECHO/Priced/x' });
    expect(estimate.body.data.estimated_cost).toBe('0.055');
    // Only the exact spelling is the public endpoint; another one may be another resource.
    const anonymous = await t.api.get(`/publishers/${pub.slug}/ECHO/PUBLIC`);
    expect([anonymous.status, anonymous.body.error.code]).toEqual([401, 'unauthorized']);
    const denying = await publisher({ undocumented_endpoint_policy: 'default_deny' });
    const denied = await t.api.get(`/publishers/${denying.slug}/ECHO/Priced/x`, { token: agent.api_key });
    expect([denied.status, denied.body.error.code]).toEqual([403, 'endpoint_not_allowed']);
    expect(await balanceOf(agent.api_key)).toBe('0.945');
  });

  it('HEAD is the GET of a documented path: allowed under default_deny and priced like it', async () => {
    const pub = await publisher({ undocumented_endpoint_policy: 'default_deny' });
    const agent = await fundedAgent('1.00');
    const response = await fetch(`${t.api.baseUrl}/publishers/${pub.slug}/echo/priced/x`, { method: 'HEAD', headers: { authorization: `Bearer ${agent.api_key}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-charge-amount')).toBe('0.055');
    expect(await balanceOf(agent.api_key)).toBe('0.945');
    expect(upstream.requests.at(-1)).toMatchObject({ method: 'HEAD', path: '/echo/priced/x' });
  });

  it('refuses protected endpoints with their reason', async () => {
    const pub = await publisher();
    const agent = await fundedAgent();
    const response = await t.api.get(`/publishers/${pub.slug}/echo/secret`, { token: agent.api_key });
    expect(response.status).toBe(403);
    expect(response.body.error).toEqual({ code: 'endpoint_protected', message: 'Admin only' });
  });

  it('public_anonymous endpoints need no credential and are free when unpriced', async () => {
    const pub = await publisher({ pricing: [] });
    const response = await t.api.get(`/publishers/${pub.slug}/echo/public`);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-charge-id')).toBeNull();
    expect((await t.api.get(`/publishers/${pub.slug}/echo/other`)).status).toBe(401);
  });

  it('rate limits per caller with max_queries_per_minute and charges nothing for refused calls', async () => {
    const pub = await publisher({ pricing: [{ pricing_model: 'per_request', price_per_call: '0.01', max_queries_per_minute: 2 }] });
    const agent = await fundedAgent('1.00');
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await t.api.get(`/publishers/${pub.slug}/echo/${i}`, { token: agent.api_key })).status);
    expect(statuses).toEqual([200, 200, 429]);
    expect(await balanceOf(agent.api_key)).toBe('0.978');
  });

  it('answers 503 upstream_not_configured and charges nothing when the upstream key is missing', async () => {
    const pub = await publisher({ upstream_api_key: undefined });
    const agent = await fundedAgent('1.00');
    const response = await t.api.get(`/publishers/${pub.slug}/echo/a`, { token: agent.api_key });
    expect(response.status).toBe(503);
    expect(response.body.error.code).toBe('upstream_not_configured');
    expect(await balanceOf(agent.api_key)).toBe('1.00');
  });

  it('answers 400 oauth_connection_required for a publisher acting on the user’s own account', async () => {
    const pub = await publisher({ requires_user_oauth: true });
    const agent = await fundedAgent();
    const response = await t.api.get(`/publishers/${pub.slug}/echo/a`, { token: agent.api_key });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('oauth_connection_required');
  });

  it('404 for an unknown publisher; catalogue routes under a publisher are not proxied', async () => {
    const agent = await fundedAgent();
    expect((await t.api.get('/publishers/no-such-publisher/echo/a', { token: agent.api_key })).status).toBe(404);
    const pub = await publisher();
    const estimate = await t.api.post(`/publishers/${pub.slug}/estimate`, { publisher_id: pub.id, query: 'x', method: 'GET', path: '/echo/a' });
    expect(estimate.body.data.estimated_cost).toBe('0.011');
    const head = await t.api.post(`/publishers/${pub.slug}/estimate`, { publisher_id: pub.id, query: 'x', method: 'HEAD', path: '/echo/priced/a' });
    expect(head.body.data.estimated_cost).toBe('0.055');
  });
});

describe('token exchange', () => {
  const exchanging = (overrides: Record<string, unknown> = {}) =>
    publisher({
      api_key_header: null,
      upstream_api_key: undefined,
      token_exchange_url: `${upstream.url}/oauth/token`,
      token_exchange_method: 'POST',
      token_exchange_mode: 'header',
      token_response_field: 'access_token',
      token_cache_ttl_seconds: 600,
      token_exchange_credentials: { client_id: 'platform', client_secret: 'shh' },
      undocumented_endpoint_policy: 'default_allow',
      ...overrides,
    });
  const bearerSeen = async (slug: string, key: string) => (await t.api.get(`/publishers/${slug}/echo/x`, { token: key })).body.headers.authorization;

  it('exchanges the stored credentials once, caches the token, and sends it upstream', async () => {
    const pub = await exchanging();
    const agent = await fundedAgent();
    const before = upstream.tokenExchanges;
    const first = await t.api.get(`/publishers/${pub.slug}/echo/a`, { token: agent.api_key });
    const second = await t.api.get(`/publishers/${pub.slug}/echo/b`, { token: agent.api_key });
    expect(first.body.headers.authorization).toBe(`Bearer exchanged-${before + 1}`);
    expect(second.body.headers.authorization).toBe(`Bearer exchanged-${before + 1}`);
    expect(upstream.tokenExchanges).toBe(before + 1);
    const exchange = upstream.requests.filter((r) => r.path === '/oauth/token').at(-1)!;
    expect(JSON.parse(exchange.body)).toEqual({ client_id: 'platform', client_secret: 'shh' });
  });

  it('shares one exchange between calls racing on a cold cache', async () => {
    const pub = await exchanging();
    const agent = await fundedAgent();
    const before = upstream.tokenExchanges;
    const seen = await Promise.all(Array.from({ length: 8 }, () => bearerSeen(pub.slug, agent.api_key)));
    expect(upstream.tokenExchanges).toBe(before + 1);
    expect(new Set(seen).size).toBe(1);
  });

  it('exchanges anew when the publisher changes its credentials, and after the upstream refuses the token (401)', async () => {
    const pub = await exchanging();
    const agent = await fundedAgent();
    const first = await bearerSeen(pub.slug, agent.api_key);
    const patched = await t.api.patch(`/publishers/${pub.slug}`, { token_exchange_credentials: { client_id: 'platform', client_secret: 'rotated' } }, { token: ownerToken });
    expect(patched.status).toBe(200);
    const afterRotation = await bearerSeen(pub.slug, agent.api_key);
    expect(afterRotation).not.toBe(first);
    expect(JSON.parse(upstream.requests.filter((r) => r.path === '/oauth/token').at(-1)!.body).client_secret).toBe('rotated');
    expect((await t.api.get(`/publishers/${pub.slug}/unauthorized`, { token: agent.api_key })).status).toBe(401);
    const afterRefusal = await bearerSeen(pub.slug, agent.api_key);
    expect(afterRefusal).not.toBe(afterRotation);
    // A caller provoking 401s on purpose cannot make the platform exchange again and again.
    const exchanges = upstream.tokenExchanges;
    for (let i = 0; i < 3; i++) await t.api.get(`/publishers/${pub.slug}/unauthorized`, { token: agent.api_key });
    expect(await bearerSeen(pub.slug, agent.api_key)).toBe(afterRefusal);
    expect(upstream.tokenExchanges).toBe(exchanges);
  });

  it('keeps a token no longer than its issuer says it lives (a short-lived one for half its life)', async () => {
    const pub = await exchanging({ token_exchange_url: `${upstream.url}/oauth/token?expires_in=2` });
    const agent = await fundedAgent();
    const first = await bearerSeen(pub.slug, agent.api_key);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await bearerSeen(pub.slug, agent.api_key)).not.toBe(first);
  });
});

describe('the publisher call view', () => {
  it('is not cached by a load that began before a change was forgotten (it would serve the old view for the whole TTL)', async () => {
    const pub = await publisher();
    const { services } = t.platform;
    const fork = () => services.orm.em.fork() as EntityManager;
    const loading = publisherForCall(services, fork(), pub.slug);
    forgetPublisherForCall(services, pub.slug);
    expect((await loading).publisher.name).toBe(pub.name);
    await fork().execute('update market_publisher set name = ? where id = ?', ['Renamed', pub.id]);
    expect((await publisherForCall(services, fork(), pub.slug)).publisher.name).toBe('Renamed');
  });
});

describe('publisher counters', () => {
  it('counts queries, distinct callers exactly, and the publisher’s revenue', async () => {
    const pub = await publisher();
    const first = await fundedAgent();
    const second = await fundedAgent();
    for (const agent of [first, first, second]) await t.api.get(`/publishers/${pub.slug}/echo/a`, { token: agent.api_key });
    await usageCountersOf(t.platform.services).flush();
    const record = await countsOf(pub.slug);
    expect(record).toMatchObject({ total_queries: 3, unique_agents_served: 2, total_revenue_atomic: 30000 });
  });

  it('keeps counts it could not write, and writes them with the next flush', async () => {
    const pub = await publisher();
    const { services } = t.platform;
    let databaseDown = true;
    const lostConnection = { transactional: () => Promise.reject(new Error('connection lost')) } as unknown as EntityManager;
    const counters = new UsageCounters(() => (databaseDown ? lostConnection : (services.orm.em.fork() as EntityManager)), services.log);
    counters.record(pub.id, null, 7n);
    await counters.flush();
    expect((await countsOf(pub.slug)).total_queries).toBe(0);
    databaseDown = false;
    counters.record(pub.id, null, 3n);
    await counters.flush();
    expect(await countsOf(pub.slug)).toMatchObject({ total_queries: 2, total_revenue_atomic: 10 });
  });

  it('at shutdown, flushes again what a failed write put back', async () => {
    const pub = await publisher();
    const { services } = t.platform;
    let failures = 2;
    const lostConnection = { transactional: () => Promise.reject(new Error('connection lost')) } as unknown as EntityManager;
    const counters = new UsageCounters(() => (failures-- > 0 ? lostConnection : (services.orm.em.fork() as EntityManager)), services.log);
    counters.record(pub.id, null, 4n);
    await counters.drain();
    expect(await countsOf(pub.slug)).toMatchObject({ total_queries: 1, total_revenue_atomic: 4 });
  });

  it('a publisher whose counts cannot be written does not hold back the others', async () => {
    const pub = await publisher();
    const counters = new UsageCounters(() => t.platform.services.orm.em.fork() as EntityManager, t.platform.services.log);
    counters.record('not-a-publisher-id', null, 1n);
    counters.record(pub.id, null, 5n);
    await counters.flush();
    expect(await countsOf(pub.slug)).toMatchObject({ total_queries: 1, total_revenue_atomic: 5 });
    // The unwritable count would be retried every second for a minute, after this file is done.
    await counters.drain();
  });

  it('writes any number of new callers (more than one statement can bind)', async () => {
    const pub = await publisher();
    const counters = usageCountersOf(t.platform.services);
    for (let i = 0; i < 40_000; i++) counters.record(pub.id, randomUUID(), 0n);
    await counters.flush();
    expect(await countsOf(pub.slug)).toMatchObject({ total_queries: 40_000, unique_agents_served: 40_000 });
  });
});
