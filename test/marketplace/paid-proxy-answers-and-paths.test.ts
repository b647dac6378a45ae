import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream-server.js';
import { startFakeServer, type FakeServer } from '../fakes/listen.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { signUpVerified } from '../support/accounts.js';
import { createPublisher, publisherBody } from '../support/publishers.js';
import { fundedAgent } from '../support/funding.js';
import { checkLedgerAfterEach } from '../support/wallet.js';
import { forgetPublisherForCall } from '../../subgraphs/marketplace/services/load-publisher-for-call.js';

const UPSTREAM_KEY = 'sk_publisher_private_key';

let t: TestPlatform;
let upstream: FakeUpstream;
/** Echoes the request's query (the injected key with it) in Location and Link, as a trailing-slash redirect or a paginating API does. */
let echoing: FakeServer;
const echoingRequests: string[] = [];
let ownerToken: string;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  echoing = await startFakeServer((req, _body, res) => {
    echoingRequests.push(req.url ?? '');
    const url = new URL(req.url ?? '/', 'http://upstream.invalid');
    if (url.pathname === '/v1/items') return void res.writeHead(307, { location: `${url.pathname}/${url.search}` }).end();
    if (url.pathname === '/v1/away') return void res.writeHead(302, { location: `https://elsewhere.example/login${url.search}` }).end();
    if (url.pathname === '/v1/echo-header') return void res.writeHead(200, { 'x-ratelimit-debug': `key=${req.headers['x-api-key']}` }).end('{}');
    res.writeHead(200, { 'content-type': 'application/json', link: `<${echoingUrl()}${url.pathname}${url.search}&page=2>; rel="next", </v1/first>; rel="first"` });
    res.end(JSON.stringify({ items: [] }));
  });
  t = await startTestPlatform({ PROXY_ALLOW_PRIVATE_UPSTREAMS: 'true', PROXY_TIMEOUT_MS: '1000' });
  ownerToken = (await signUpVerified(t)).accessToken;
});
afterAll(async () => {
  await t.close();
  await upstream.close();
  await echoing.close();
});
checkLedgerAfterEach(() => t);

const echoingUrl = () => echoing.url;

const balanceOf = async (key: string) => (await t.api.get('/wallet/balance', { token: key })).body.data.balance as string;

const echoPublisher = (overrides: Record<string, unknown> = {}) =>
  createPublisher(t, ownerToken, {
    api_url: upstream.url,
    api_key_header: 'X-Api-Key',
    upstream_api_key: 'sk_upstream_secret',
    gateway_fee_percent: '10',
    endpoints: [
      { method: 'GET', path: '/echo/{thing}', description: 'Echo' },
      { method: 'GET', path: '/echo/priced/{thing}', description: 'Priced', price: '0.05' },
      { method: 'GET', path: '/echo/secret', description: 'Off limits', is_protected: true, protection_reason: 'Admin only' },
    ],
    pricing: [{ pricing_model: 'per_request', price_per_call: '0.01' }],
    ...overrides,
  });

describe('the publisher’s injected credential never reaches the caller', () => {
  const keyInQuery = (overrides: Record<string, unknown> = {}) =>
    createPublisher(t, ownerToken, {
      api_url: `${echoing.url}/v1`,
      api_key_header: null,
      api_key_query_param: 'api_key',
      upstream_api_key: UPSTREAM_KEY,
      endpoints: [],
      pricing: [{ pricing_model: 'per_request', price_per_call: '0.01' }],
      ...overrides,
    });

  it('a redirect that keeps the query is shown under /publishers/{slug}, without the injected parameter', async () => {
    const pub = await keyInQuery();
    const agent = await fundedAgent(t);
    const redirected = await t.api.get(`/publishers/${pub.slug}/items?q=1`, { token: agent.api_key });
    expect(echoingRequests.at(-1)).toBe(`/v1/items?q=1&api_key=${UPSTREAM_KEY}`);
    expect(redirected.status).toBe(307);
    expect(redirected.headers.get('location')).toBe(`/publishers/${pub.slug}/items/?q=1`);
  });

  it('a redirect elsewhere keeps its address, without the injected parameter', async () => {
    const pub = await keyInQuery();
    const agent = await fundedAgent(t);
    const redirected = await t.api.get(`/publishers/${pub.slug}/away?q=1`, { token: agent.api_key });
    expect(redirected.headers.get('location')).toBe('https://elsewhere.example/login?q=1');
  });

  it('pagination links are shown under /publishers/{slug}, without the injected parameter', async () => {
    const pub = await keyInQuery();
    const agent = await fundedAgent(t);
    const listed = await t.api.get(`/publishers/${pub.slug}/list?q=1`, { token: agent.api_key });
    expect(listed.status).toBe(200);
    expect(listed.headers.get('link')).toBe(`</publishers/${pub.slug}/list?q=1&page=2>; rel="next", </publishers/${pub.slug}/first>; rel="first"`);
  });

  it('any other answer header carrying an injected key is dropped', async () => {
    const pub = await keyInQuery({ api_key_header: 'X-Api-Key', api_key_query_param: null });
    const agent = await fundedAgent(t);
    const answered = await t.api.get(`/publishers/${pub.slug}/echo-header`, { token: agent.api_key });
    expect(answered.status).toBe(200);
    expect(answered.headers.get('x-ratelimit-debug')).toBeNull();
  });
});

describe('the path forwarded is the path judged', () => {
  for (const [label, path] of [
    ['a leading empty segment reaching a protected endpoint', '//x/echo/secret'],
    ['an empty segment making a priced endpoint cheaper', '/echo//priced/y'],
  ]) {
    it(`${label} (${path}) is 400 invalid_path: nothing forwarded, nothing charged`, async () => {
      const pub = await echoPublisher();
      const agent = await fundedAgent(t);
      const before = upstream.requests.length;
      const response = await t.api.requestAsWritten('GET', `/publishers/${pub.slug}${path}`, { token: agent.api_key });
      expect([response.status, response.body.error?.code]).toEqual([400, 'invalid_path']);
      expect(upstream.requests.length).toBe(before);
      expect(await balanceOf(agent.api_key)).toBe('1.00');
    });
  }

  it('a trailing slash is the same endpoint and goes upstream as written', async () => {
    const pub = await echoPublisher();
    const agent = await fundedAgent(t);
    const response = await t.api.get(`/publishers/${pub.slug}/echo/priced/y/`, { token: agent.api_key });
    expect(response.headers.get('x-charge-amount')).toBe('0.055');
    expect(upstream.requests.at(-1)?.path).toBe('/echo/priced/y/');
  });

  it('the platform’s prefix spelled in another case is still cut: the upstream sees the path after the slug', async () => {
    const pub = await echoPublisher();
    const agent = await fundedAgent(t);
    const response = await t.api.requestAsWritten('GET', `/PUBLISHERS/${pub.slug}/echo/x`, { token: agent.api_key });
    expect(response.status).toBe(200);
    expect(upstream.requests.at(-1)?.path).toBe('/echo/x');
  });

  it('TRACE, CONNECT-like and unknown methods are 405 with Allow: nothing forwarded (TRACE would echo the key), nothing charged', async () => {
    const pub = await echoPublisher();
    const agent = await fundedAgent(t);
    const before = upstream.requests.length;
    for (const method of ['TRACE', 'PROPFIND']) {
      const response = await t.api.requestAsWritten(method, `/publishers/${pub.slug}/echo/x`, { token: agent.api_key });
      expect([response.status, response.body.error?.code]).toEqual([405, 'method_not_allowed']);
      expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE');
    }
    expect(upstream.requests.length).toBe(before);
    expect(await balanceOf(agent.api_key)).toBe('1.00');
  });
});

describe('pay_per_use needs a ceiling to reserve', () => {
  const payPerUse = (pricing: Record<string, unknown>[]) => ({
    ...publisherBody(),
    api_url: upstream.url,
    billing_model: 'pay_per_use',
    upstream_cost_response_path: 'usage.cost',
    endpoints: [{ method: 'GET', path: '/usage', description: 'Metered' }],
    pricing,
  });

  it('is refused without reserve_max_charge, on create and on an update that would drop it or switch the model', async () => {
    for (const pricing of [[], [{ pricing_model: 'per_request' }], [{ pricing_model: 'per_request', reserve_max_charge: '0' }]]) {
      const created = await t.api.post('/publishers', payPerUse(pricing), { token: ownerToken });
      expect([created.status, created.body.error?.code]).toEqual([400, 'reserve_max_charge_required']);
    }
    const created = await t.api.post('/publishers', payPerUse([{ reserve_max_charge: '0.10' }]), { token: ownerToken });
    expect(created.status).toBe(201);
    const dropped = await t.api.patch(`/publishers/${created.body.data.slug}`, { pricing: [{ price_per_call: '0.01' }] }, { token: ownerToken });
    expect([dropped.status, dropped.body.error?.code]).toEqual([400, 'reserve_max_charge_required']);
    const flat = await echoPublisher();
    const switched = await t.api.patch(`/publishers/${flat.slug}`, { billing_model: 'pay_per_use' }, { token: ownerToken });
    expect([switched.status, switched.body.error?.code]).toEqual([400, 'reserve_max_charge_required']);
  });

  it('one stored before the rule is not called for free: 503 upstream_not_configured, nothing forwarded', async () => {
    const created = await t.api.post('/publishers', payPerUse([{ reserve_max_charge: '0.10' }]), { token: ownerToken });
    const em = t.platform.services.orm.em.fork();
    await em.execute(`update market_pricing set reserve_max_charge = null where publisher_id = ?`, [created.body.data.id]);
    forgetPublisherForCall(t.platform.services, created.body.data.slug);
    const agent = await fundedAgent(t);
    const before = upstream.requests.length;
    const response = await t.api.get(`/publishers/${created.body.data.slug}/usage?cost=0.5`, { token: agent.api_key });
    expect([response.status, response.body.error?.code]).toEqual([503, 'upstream_not_configured']);
    expect(upstream.requests.length).toBe(before);
  });
});
