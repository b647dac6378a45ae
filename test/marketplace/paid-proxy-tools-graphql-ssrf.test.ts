import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream-server.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { registerAgent, signUpVerified } from '../support/accounts.js';
import { createPublisher } from '../support/publishers.js';
import { fundWallet } from '../support/funding.js';
import { checkLedgerAfterEach } from '../support/wallet.js';
import { withPostsRefused } from '../support/ledger.js';
import type { EntityManager } from '@mikro-orm/postgresql';

let upstream: FakeUpstream;
let open: TestPlatform;
let guarded: TestPlatform;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  open = await startTestPlatform({ PROXY_ALLOW_PRIVATE_UPSTREAMS: 'true' });
  guarded = await startTestPlatform({
    PROXY_ALLOW_PRIVATE_UPSTREAMS: 'false',
    PROXY_ALLOWED_UPSTREAM_ORIGINS: upstream.url,
    PROXY_TIMEOUT_MS: '1500',
    PROXY_MAX_BUFFERED_BYTES: '65536',
  });
});
afterAll(async () => {
  await open.close();
  await guarded.close();
  await upstream.close();
});
checkLedgerAfterEach(() => open);

async function fundedAgent(t: TestPlatform, amount = '1.00') {
  const agent = await registerAgent(t, { name: 'caller' });
  await fundWallet(t, agent.id, amount);
  return agent;
}

const CALL = `mutation($input: CallPublisherInput!) { callPublisher(input: $input) { status contentType json chargeId chargeAmount balanceRemaining } }`;

const balanceOf = async (t: TestPlatform, key: string) => (await t.api.get('/wallet/balance', { token: key })).body.data.balance;

/** How many paid calls `open` has counted with this outcome. */
async function paidCallsCounted(outcome: string): Promise<number> {
  const counter = await open.platform.services.metrics.registry.getSingleMetric('acp_paid_calls_total')!.get();
  return counter.values.find((value) => value.labels.outcome === outcome)?.value ?? 0;
}

/** A tool-protocol publisher, compute by default; `kind` makes it another kind (the support helper's integration defaults). */
async function toolPublisher(pricing: Record<string, unknown> = {}, t: TestPlatform = open, kind: Record<string, unknown> = { publisher_category: 'compute', compute_type: 'function', integration_type: null }) {
  const owner = await signUpVerified(t);
  return createPublisher(t, owner.accessToken, {
    api_url: null,
    mcp_endpoint: `${upstream.url}/mcp`,
    ...kind,
    api_key_header: 'X-Api-Key',
    upstream_api_key: 'tool-key',
    gateway_fee_percent: '0',
    endpoints: [],
    pricing: [{ pricing_model: 'per_request', price_per_call: '0.01', price_per_execution: '0.03', ...pricing }],
  });
}

describe('tool-protocol publishers', () => {
  it('lists tools and resources through the official MCP client', async () => {
    const pub = await toolPublisher();
    const agent = await fundedAgent(open);
    const tools = await open.api.get(`/publishers/${pub.slug}/_tools`, { token: agent.api_key });
    expect(tools.status).toBe(200);
    expect(tools.body.data.map((tool: any) => tool.name).sort()).toEqual(['add', 'fail', 'repeat', 'sleep']);
    const resources = await open.api.get(`/publishers/${pub.slug}/_resources`, { token: agent.api_key });
    expect(resources.body.data).toEqual([expect.objectContaining({ uri: 'docs://readme' })]);
    expect((await open.api.get(`/publishers/${pub.slug}/_tools`)).status).toBe(401);
  });

  it('a tool name with a control character is 400 invalid_tool_name, and arguments nested beyond 64 levels 400 json_too_deep; nothing charged', async () => {
    const pub = await toolPublisher();
    const agent = await fundedAgent(open);
    const named = await open.api.post(`/publishers/${pub.slug}/add%00x`, { a: 1, b: 2 }, { token: agent.api_key });
    expect([named.status, named.body.error.code]).toEqual([400, 'invalid_tool_name']);
    const raw = '{"a":'.repeat(1_000) + '1' + '}'.repeat(1_000);
    const deep = await open.api.request('POST', `/publishers/${pub.slug}/add`, undefined, { token: agent.api_key, raw });
    expect([deep.status, deep.body.error.code]).toEqual([400, 'json_too_deep']);
    expect(await balanceOf(open, agent.api_key)).toBe('1.00');
  });

  it('calls a tool with the body as arguments, charging price_per_execution', async () => {
    const pub = await toolPublisher();
    const agent = await fundedAgent(open);
    const response = await open.api.post(`/publishers/${pub.slug}/add`, { a: 2, b: 40 }, { token: agent.api_key });
    expect(response.status).toBe(200);
    expect(response.body.data.content).toEqual([{ type: 'text', text: '42' }]);
    expect(response.headers.get('x-charge-amount')).toBe('0.03');
    expect(await balanceOf(open, agent.api_key)).toBe('0.97');
  });

  it('callPublisher POSTing one segment calls the tool, as the data plane does', async () => {
    const pub = await toolPublisher();
    const agent = await fundedAgent(open);
    const response = await open.api.graphql(CALL, { input: { slug: pub.slug, method: 'POST', path: '/add', body: { a: 2, b: 40 } } }, { token: agent.api_key });
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data.callPublisher).toMatchObject({ status: 200, chargeAmount: '0.03', balanceRemaining: '0.97', json: { content: [{ type: 'text', text: '42' }] } });
  });

  it('estimates a tool call at what it is charged: price_per_execution, for any kind of tool publisher', async () => {
    const pub = await toolPublisher({}, open, {});
    expect(pub.publisher_category).toBe('integration');
    const estimate = await open.api.post(`/publishers/${pub.slug}/estimate`, { publisher_id: pub.id, query: 'x', method: 'POST', path: '/add' });
    expect(estimate.body.data.estimated_cost).toBe('0.03');
    const agent = await fundedAgent(open);
    const call = await open.api.post(`/publishers/${pub.slug}/add`, { a: 1, b: 2 }, { token: agent.api_key });
    expect(call.headers.get('x-charge-amount')).toBe('0.03');
  });

  it('charges nothing when the tool reports an error', async () => {
    const pub = await toolPublisher();
    const agent = await fundedAgent(open);
    const response = await open.api.post(`/publishers/${pub.slug}/fail`, {}, { token: agent.api_key });
    expect(response.status).toBe(502);
    expect(response.body.error).toEqual({ code: 'tool_failed', message: 'tool failed on purpose; nothing was charged' });
    expect(await balanceOf(open, agent.api_key)).toBe('1.00');
  });

  it('holds tool calls and listings to max_queries_per_minute like any call, and charges nothing for the refused one', async () => {
    const pub = await toolPublisher({ max_queries_per_minute: 1 });
    const agent = await fundedAgent(open);
    expect((await open.api.post(`/publishers/${pub.slug}/add`, { a: 1, b: 1 }, { token: agent.api_key })).status).toBe(200);
    const refused = await open.api.post(`/publishers/${pub.slug}/add`, { a: 1, b: 1 }, { token: agent.api_key });
    expect([refused.status, refused.body.error.code]).toEqual([429, 'rate_limited']);
    expect((await open.api.get(`/publishers/${pub.slug}/_tools`, { token: agent.api_key })).status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await balanceOf(open, agent.api_key)).toBe('0.97');
  });

  it('works with a tool server that keeps sessions, and ends each session it opened with its event stream', async () => {
    const pub = await toolPublisher({}, open, { publisher_category: 'compute', compute_type: 'function', integration_type: null, mcp_endpoint: `${upstream.url}/mcp-sessions` });
    const agent = await fundedAgent(open);
    for (const b of [1, 2, 3]) {
      const response = await open.api.post(`/publishers/${pub.slug}/add`, { a: 1, b }, { token: agent.api_key });
      expect([response.status, response.body.data.content]).toEqual([200, [{ type: 'text', text: String(1 + b) }]]);
    }
    // Each stream would hold one of the pool's sockets to this server for as long as the server keeps it.
    const tools = upstream.statefulTools;
    for (let waited = 0; tools.openStreams + tools.openSessions > 0 && waited < 2000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    expect([tools.openStreams, tools.openSessions]).toEqual([0, 0]);
  });

  it.each(['/mcp', '/mcp-sse', '/mcp-sessions'])('a tool answer (%s) larger than PROXY_MAX_BUFFERED_BYTES is 502, one slower than PROXY_TIMEOUT_MS is 504, and neither costs anything', async (endpoint) => {
    const pub = await toolPublisher({}, guarded, { publisher_category: 'compute', compute_type: 'function', integration_type: null, mcp_endpoint: `${upstream.url}${endpoint}` });
    const agent = await fundedAgent(guarded);
    const large = await guarded.api.post(`/publishers/${pub.slug}/repeat`, { size: 200_000 }, { token: agent.api_key });
    expect([large.status, large.body.error.code]).toEqual([502, 'upstream_response_too_large']);
    const slow = await guarded.api.post(`/publishers/${pub.slug}/sleep`, { ms: 3000 }, { token: agent.api_key });
    expect([slow.status, slow.body.error.code]).toEqual([504, 'upstream_timeout']);
    expect(await balanceOf(guarded, agent.api_key)).toBe('1.00');
    const small = await guarded.api.post(`/publishers/${pub.slug}/repeat`, { size: 10 }, { token: agent.api_key });
    expect(small.body.data.content).toEqual([{ type: 'text', text: 'x'.repeat(10) }]);
    // Sessions cut short by the cap or the deadline are ended at the server too.
    const tools = upstream.statefulTools;
    for (let waited = 0; tools.openSessions > 0 && waited < 2000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(tools.openSessions).toBe(0);
  });

  it('a publisher without mcp_endpoint has no tools', async () => {
    const owner = await signUpVerified(open);
    const pub = await createPublisher(open, owner.accessToken, { api_url: upstream.url });
    const agent = await fundedAgent(open);
    expect((await open.api.get(`/publishers/${pub.slug}/_tools`, { token: agent.api_key })).body.error.code).toBe('not_a_tool_publisher');
  });
});

describe('GraphQL callPublisher', () => {
  /** An upstream echo at 0.01 per call, no fee. */
  async function echoPublisher(method: 'GET' | 'POST') {
    const owner = await signUpVerified(open);
    return createPublisher(open, owner.accessToken, {
      api_url: upstream.url,
      gateway_fee_percent: '0',
      endpoints: [{ method, path: '/echo/{thing}', description: 'Echo' }],
      pricing: [{ pricing_model: 'per_request', price_per_call: '0.01' }],
    });
  }

  it('makes the same paid call as the REST data plane', async () => {
    const pub = await echoPublisher('POST');
    const agent = await fundedAgent(open);
    const response = await open.api.graphql(CALL, { input: { slug: pub.slug, method: 'POST', path: '/echo/x', query: { q: 1 }, body: { hi: true } } }, { token: agent.api_key });
    expect(response.body.errors).toBeUndefined();
    const result = response.body.data.callPublisher;
    expect(result).toMatchObject({ status: 200, chargeAmount: '0.01', balanceRemaining: '0.99' });
    expect(result.json).toMatchObject({ method: 'POST', path: '/echo/x', query: { q: '1' }, body: '{"hi":true}' });
    expect(result.json.headers['x-api-key']).toBe('sk_upstream_secret_123');
    const broke = await registerAgent(open);
    const refused = await open.api.graphql(CALL, { input: { slug: pub.slug, method: 'POST', path: '/echo/x' } }, { token: broke.api_key });
    expect(refused.body.errors![0].extensions).toMatchObject({ code: 'insufficient_balance', status: 402 });
  });

  it.each([['GraphQL', 'graphql'], ['the REST data plane', 'rest'], ['a tool call', 'tool']] as const)('through %s, a charge the ledger refuses gives the hold back at once, not at the orphan sweep', async (_label, via) => {
    const pub = via === 'tool' ? await toolPublisher() : await echoPublisher('GET');
    const agent = await fundedAgent(open);
    const em = open.platform.services.orm.em.fork() as EntityManager;
    const call = {
      graphql: async () => (await open.api.graphql(CALL, { input: { slug: pub.slug, method: 'GET', path: '/echo/x' } }, { token: agent.api_key })).body.errors?.[0]?.extensions?.status,
      rest: async () => (await open.api.get(`/publishers/${pub.slug}/echo/x`, { token: agent.api_key })).status,
      tool: async () => (await open.api.post(`/publishers/${pub.slug}/add`, { a: 1, b: 2 }, { token: agent.api_key })).status,
    }[via];
    const released = await paidCallsCounted('released');
    const failed = await withPostsRefused(em, call);
    expect(failed).toBe(500);
    expect((await open.api.get('/wallet/balance', { token: agent.api_key })).body.data).toMatchObject({ balance: '1.00', available: '1.00' });
    // Counted once, as released.
    expect((await paidCallsCounted('released')) - released).toBe(1);
  });

  it('vets the path like the data plane: dot segments and a raw "?" are refused before anything moves', async () => {
    const owner = await signUpVerified(open);
    const pub = await createPublisher(open, owner.accessToken, { api_url: upstream.url, undocumented_endpoint_policy: 'default_deny', endpoints: [{ method: 'GET', path: '/echo/{thing}', description: 'Echo' }] });
    const agent = await fundedAgent(open);
    for (const path of ['/echo/../admin', '/echo/x?admin=1', '/echo/\tx']) {
      const response = await open.api.graphql(CALL, { input: { slug: pub.slug, method: 'GET', path } }, { token: agent.api_key });
      expect(response.body.errors![0].extensions).toMatchObject({ code: 'invalid_path', status: 400 });
    }
    expect(await balanceOf(open, agent.api_key)).toBe('1.00');
  });
});

describe('the SSRF guard on the paid path', () => {
  it.each([
    ['loopback', 'http://127.0.0.1:9/'],
    ['a private network', 'http://10.0.0.1/'],
    ['cloud metadata', 'http://169.254.169.254/latest/'],
    ['a hostname resolving to loopback', 'http://localhost:9/'],
  ])('refuses an upstream on %s and charges nothing', async (_label, apiUrl) => {
    const owner = await signUpVerified(guarded);
    const pub = await createPublisher(guarded, owner.accessToken, { api_url: apiUrl, gateway_fee_percent: '0', undocumented_endpoint_policy: 'default_allow' });
    const agent = await fundedAgent(guarded);
    const response = await guarded.api.get(`/publishers/${pub.slug}/anything`, { token: agent.api_key });
    expect(response.status).toBe(502);
    expect(response.body.error.code).toBe('upstream_address_blocked');
    expect(await balanceOf(guarded, agent.api_key)).toBe('1.00');
  });

  it('hands a redirect back to the caller (shown under /publishers/{slug}) instead of following it', async () => {
    const owner = await signUpVerified(guarded);
    const pub = await createPublisher(guarded, owner.accessToken, { api_url: upstream.url, undocumented_endpoint_policy: 'default_allow' });
    const agent = await fundedAgent(guarded);
    const before = upstream.requests.filter((r) => r.path === '/echo/after-redirect').length;
    const response = await guarded.api.get(`/publishers/${pub.slug}/redirect`, { token: agent.api_key });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(`/publishers/${pub.slug}/echo/after-redirect`);
    expect(upstream.requests.filter((r) => r.path === '/echo/after-redirect').length).toBe(before);
  });

  it('refuses a token exchange that redirects to a private address', async () => {
    const owner = await signUpVerified(guarded);
    const pub = await createPublisher(guarded, owner.accessToken, {
      api_url: upstream.url,
      token_exchange_url: `${upstream.url}/redirect`,
      token_exchange_credentials: { client_id: 'x' },
      api_key_header: null,
      upstream_api_key: undefined,
    });
    const agent = await fundedAgent(guarded);
    const response = await guarded.api.get(`/publishers/${pub.slug}/v1/markets`, { token: agent.api_key });
    expect(response.status).toBe(502);
    expect(['upstream_address_blocked', 'upstream_token_exchange_failed']).toContain(response.body.error.code);
  });
});
