import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { PASSWORD, signUpVerified, type SignedInUser } from '../support/accounts.js';
import { createPublisher, publisherBody } from '../support/publishers.js';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream-server.js';

let t: TestPlatform;
let upstream: FakeUpstream;
let user: SignedInUser;
beforeAll(async () => {
  upstream = await startFakeUpstream();
  t = await startTestPlatform({ PROXY_ALLOW_PRIVATE_UPSTREAMS: 'true' });
  user = await signUpVerified(t);
});
afterAll(async () => {
  await t.close();
  await upstream.close();
});

const SNAKE = /^[a-z][a-z0-9_]*$/;
const unknownKeys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 1]));
const withRaw = (overrides: Record<string, unknown>, placeholder: string, raw: string) =>
  JSON.stringify(publisherBody(overrides)).replace(placeholder, raw);
const postRaw = (raw: string) => t.api.request('POST', '/publishers', undefined, { token: user.accessToken, raw });

describe('a malformed GraphQL request is the caller’s error: HTTP 400, never 500', () => {
  it.each([
    ['a syntax error', { query: '{ me { ' }, 'graphql_parse_failed'],
    ['a document over 4,000 tokens', { query: `{ ${'__typename '.repeat(5000)} }` }, 'graphql_parse_failed'],
    ['two operations and no operationName', { query: 'query A { __typename } query B { __typename }' }, 'invalid_operation'],
    ['an unknown operationName', { query: 'query A { __typename }', operationName: 'X' }, 'invalid_operation'],
    ['a subscription', { query: 'subscription { x }' }, 'invalid_operation'],
  ])('%s', async (_label, body, code) => {
    const response = await t.api.request('POST', '/graphql', body);
    expect(response.status).toBe(400);
    expect(response.body.errors![0].extensions).toMatchObject({ code, status: 400 });
  });
});

describe('variables that do not fit their types', () => {
  it('are reported briefly: 2,000 unknown keys in GraphQL give one short error, not one error quoting the whole value per key', async () => {
    const response = await t.api.graphql('mutation($i: RegisterAgentInput) { registerAgent(input: $i) { agent { id } } }', { i: unknownKeys(2000) });
    expect(response.status).toBe(400);
    expect(response.body.errors).toHaveLength(1);
    expect(response.body.errors![0].extensions).toMatchObject({ code: 'invalid_input', status: 400 });
    expect(response.body.errors![0].message.length).toBeLessThanOrEqual(501);
  });

  it('and in REST: an anonymous body of 4,000 unknown keys is taken, the keys ignored (REST accepts what the operation does not use)', async () => {
    const response = await t.api.post('/auth/agent', unknownKeys(4000));
    expect(response.status).toBe(201);
    expect(response.body.data.agent.api_key).toEqual(expect.any(String));
  });

  it('the error names what is wrong without quoting the values sent (a password, say)', async () => {
    const response = await t.api.post('/auth/signup', { email: 'quote@example.test', password: 'a secret passphrase 99', name: 42, extra: 1 });
    expect([response.status, response.body.error.code]).toEqual([400, 'invalid_input']);
    expect(response.body.error.message).not.toContain('a secret passphrase 99');
  });
});

describe('text PostgreSQL cannot store is 400 invalid_text wherever it hides', () => {
  it('a raw NUL inside a GraphQL block string', async () => {
    const response = await t.api.request('POST', '/graphql', undefined, {
      raw: '{"query":"mutation { registerAgent(input: {name: \\"\\"\\"a\\u0000b\\"\\"\\"}) { agent { id } } }"}',
    });
    expect(response.status).toBe(400);
    expect(response.body.errors![0].extensions).toMatchObject({ code: 'invalid_text', status: 400 });
  });

  it('a NUL nested 60 levels deep', async () => {
    const response = await postRaw(withRaw({ database_config: 'DEEP' }, '"DEEP"', '{"a":'.repeat(60) + '"x\\u0000"' + '}'.repeat(60)));
    expect([response.status, response.body.error.code]).toEqual([400, 'invalid_text']);
  });

  it.each([
    ['database_config', { database_config: { a: 'BAD' } }],
    ['a2a_agent_card', { a2a_agent_card: { a: 'BAD' } }],
    ['an endpoint’s request_body', { endpoints: [{ method: 'GET', path: '/x', description: 'x', request_body: { a: 'BAD' } }] }],
  ])('a lone surrogate in %s', async (_label, overrides) => {
    const response = await postRaw(withRaw(overrides, 'BAD', 'a\\ud800'));
    expect([response.status, response.body.error.code]).toEqual([400, 'invalid_text']);
  });

  it('a list of 400,000 items in variables (under the 1 MB limit) is walked without overflowing the stack', async () => {
    const raw = JSON.stringify({ query: '{ __typename }', variables: { x: new Array(400_000).fill(0) } });
    expect(raw.length).toBeLessThan(1024 * 1024);
    const response = await t.api.request('POST', '/graphql', undefined, { raw });
    expect([response.status, response.body.data]).toEqual([200, { __typename: 'Query' }]);
  });

  it('a well-formed pair (an emoji) is kept', async () => {
    const record = await createPublisher(t, user.accessToken, { database_config: { mood: '🙂' } });
    expect(record.database_config).toEqual({ mood: '🙂' });
  });
});

describe('JSON nested beyond 64 levels', () => {
  it.each(['database_config', 'routing'])('in %s is 400 json_too_deep (10,000 levels overflowed the stack into a 500)', async (field) => {
    const response = await postRaw(withRaw({ [field]: 'DEEP' }, '"DEEP"', '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000)));
    expect([response.status, response.body.error.code]).toEqual([400, 'json_too_deep']);
  });

  it('written in the document itself (a literal) is refused too', async () => {
    const literal = '{a:'.repeat(100) + '1' + '}'.repeat(100);
    const response = await t.api.graphql(
      `mutation { createPublisher(input: {name: "Deep", slug: "deep-literal", description: "d", publisherCategory: "integration", integrationType: "api", billingModel: "prepaid_credits", apiUrl: "https://api.deep.example/", databaseConfig: ${literal}}) { id } }`,
      {},
      { token: user.accessToken },
    );
    expect(response.status).toBe(400);
    expect(response.body.errors![0].extensions).toMatchObject({ code: 'json_too_deep', status: 400 });
  });

  it('is refused at /graphql in GraphQL’s shape', async () => {
    const response = await t.api.request('POST', '/graphql', undefined, { raw: `{"query":"{ __typename }","variables":{"a":${'['.repeat(100)}${']'.repeat(100)}}}` });
    expect(response.status).toBe(400);
    expect(response.body.errors![0].extensions).toMatchObject({ code: 'json_too_deep', status: 400 });
  });
});

describe('errors answered before GraphQL runs come in GraphQL’s shape at /graphql', () => {
  it('an unknown API key is 401 with errors[].extensions', async () => {
    const response = await t.api.graphql('{ __typename }', {}, { token: `ak_${'x'.repeat(43)}` });
    expect(response.status).toBe(401);
    expect(response.body.errors![0].extensions).toMatchObject({ code: 'invalid_api_key', status: 401 });
  });

  it('a body that is not JSON is 400 invalid_json with errors[].extensions', async () => {
    const response = await t.api.request('POST', '/graphql', undefined, { raw: '{"query": ' });
    expect(response.status).toBe(400);
    expect(response.body.errors![0].extensions).toMatchObject({ code: 'invalid_json', status: 400 });
  });

  it('REST keeps its own shape', async () => {
    const response = await t.api.get('/auth/me', { token: `ak_${'x'.repeat(43)}` });
    expect(response.body.error.code).toMatch(SNAKE);
  });
});

describe('caching', () => {
  it('answers carrying tokens or keys (login, refresh, agent registration) and GraphQL are marked no-store', async () => {
    const login = await t.api.post('/auth/login', { email: user.email, password: PASSWORD });
    const refreshed = await t.api.post('/auth/refresh', { refresh_token: login.body.data.refresh_token });
    const agent = await t.api.post('/auth/agent', { name: 'cache-check' });
    const graphql = await t.api.graphql('{ __typename }', {});
    for (const response of [login, refreshed, agent, graphql]) expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('a publisher’s answer keeps the upstream’s own Cache-Control; one without any is no-store', async () => {
    const record = await createPublisher(t, user.accessToken, { api_url: upstream.url, undocumented_endpoint_policy: 'default_allow', endpoints: [], pricing: [] });
    const streamed = await t.api.get(`/publishers/${record.slug}/sse?events=1&gap=0`, { token: user.accessToken });
    expect(streamed.headers.get('cache-control')).toBe('no-cache');
    const plain = await t.api.get(`/publishers/${record.slug}/echo/x`, { token: user.accessToken });
    expect([plain.status, plain.headers.get('cache-control')]).toEqual([200, 'no-store']);
  });
});
