import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes, randomUUID } from 'node:crypto';
import { startSubgraphProcess, type SubgraphProcess } from '../support/subgraph-process.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { PASSWORD, registerAgent, signUpVerified, uniqueEmail, type SignedInUser } from '../support/accounts.js';
import { createPublisher, publisherBody } from '../support/publishers.js';
import { restRoutes } from '../../rest-adapter/routes/index.js';

const secrets = {
  JWT_SECRET: randomBytes(32).toString('hex'),
  INTERNAL_SECRET: randomBytes(32).toString('hex'),
  SECRETS_KEY: randomBytes(32).toString('hex'),
};

let t: TestPlatform;
let user: SignedInUser;

beforeAll(async () => {
  t = await startTestPlatform(secrets);
  user = await signUpVerified(t);
});
afterAll(() => t.close());

/** No GraphQL type name or notation in what a REST caller reads. */
const GRAPHQL_VOCABULARY = /[A-Za-z]+Input\b|\w+!|\$\w+|\b(String|ID|Int|Boolean|Decimal|JSONObject)\b|[a-z]+[A-Z]\w*/;

describe('a REST body may carry fields the operation does not use', () => {
  it('ignores unknown body fields instead of refusing them', async () => {
    const login = await t.api.post('/auth/login', { email: user.email, password: PASSWORD, remember_me: true, client: { name: 'cli' } });
    expect(login.status).toBe(200);
    expect(login.body.data.access_token).toEqual(expect.any(String));
  });

  it('a missing required field is 400 naming it in snake_case, without GraphQL vocabulary', async () => {
    const missing = await t.api.post('/auth/change-password', { current_password: PASSWORD, extra: 1 }, { token: user.accessToken });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toEqual({ code: 'invalid_input', message: 'new_password is required' });
  });

  it('a wrong JSON type is 400 naming the snake_case field, nested fields with their path', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ gateway_fee_percent: true }, 'gateway_fee_percent'],
      [{ gateway_fee_percent: ['1'] }, 'gateway_fee_percent'],
      [{ gateway_fee_percent: { value: '1' } }, 'gateway_fee_percent'],
      [{ pricing: [{ price_per_call: [1] }] }, 'pricing[0].price_per_call'],
      [{ pricing: [{ min_charge: { a: 1 } }] }, 'pricing[0].min_charge'],
      [{ endpoints: [{ method: 'GET', path: '/x', price: false }] }, 'endpoints[0].price'],
      [{ name: 42 }, 'name'],
      [{ categories: [1] }, 'categories[0]'],
    ];
    for (const [fields, field] of cases) {
      for (const [method, path] of [['POST', '/publishers'], ['PATCH', '/publishers/no-such-publisher']]) {
        const answer = await t.api.request(method!, path!, publisherBody(fields), { token: user.accessToken });
        expect({ fields, method, status: answer.status, code: answer.body.error?.code }).toEqual({ fields, method, status: 400, code: 'invalid_input' });
        expect(answer.body.error.message.startsWith(`${field} must be`)).toBe(true);
        expect(answer.body.error.message.replace(field, '')).not.toMatch(GRAPHQL_VOCABULARY);
      }
    }
  });
});

describe('GraphQL stays strict, and a variable only a subgraph can refuse is 400, not 500', () => {
  it('an unknown input field is refused by GraphQL', async () => {
    const answer = await t.api.graphql('mutation($input: LoginInput!) { login(input: $input) { accessToken } }', { input: { email: user.email, password: PASSWORD, rememberMe: true } });
    expect(answer.status).toBe(400);
    expect(answer.body.errors![0].extensions.code).toBe('invalid_input');
  });

  it.each([
    ['a decimal given as true', 'mutation($i: PublisherInput!) { createPublisher(input: $i) { id } }', { i: { name: 'x', slug: 'x-y', publisherCategory: 'compute', gatewayFeePercent: true } }, ['i', 'gatewayFeePercent']],
    ['a price given as a list', 'mutation($i: PublisherInput!) { createPublisher(input: $i) { id } }', { i: { name: 'x', slug: 'x-y', publisherCategory: 'compute', pricing: [{ pricePerCall: [1] }] } }, ['i', 'pricing', 0, 'pricePerCall']],
    ['callPublisher with a query that is not an object', 'mutation($i: CallPublisherInput!) { callPublisher(input: $i) { status } }', { i: { slug: 'anything', query: 'a=1' } }, ['i', 'query']],
  ])('%s', async (_name, query, variables, variablePath) => {
    const answer = await t.api.graphql(query, variables, { token: user.accessToken });
    expect(answer.status).toBe(400);
    expect(answer.body.errors![0].extensions).toMatchObject({ code: 'invalid_input', status: 400, details: { variablePath } });
  });
});

describe('a Bearer route checks the credential before the body', () => {
  it.each([
    ['no credential', undefined],
    ['a bad credential', 'not-a-token'],
  ])('%s is 401 whatever the body holds', async (_name, token) => {
    for (const body of [{}, { current_password: 1 }, { new_password: 'x'.repeat(10) }]) {
      const answer = await t.api.post('/auth/change-password', body, { token });
      expect(answer.status).toBe(401);
    }
    expect((await t.api.post('/publishers', { gateway_fee_percent: true }, { token })).status).toBe(401);
    expect((await t.api.post('/wallet/referral/apply', { referral_code: 7 }, { token })).status).toBe(401);
  });

  it('a public read (auth: optional, the specification’s Auth none) answers an anonymous caller', async () => {
    const reads = restRoutes.filter((route) => route.auth === 'optional' && route.method === 'GET');
    expect(reads.length).toBeGreaterThan(5);
    for (const route of reads) {
      const answer = await t.api.get(route.path.replace(/:(\w+)/g, () => randomUUID()));
      expect({ route: route.path, status: answer.status }).not.toEqual({ route: route.path, status: 401 });
    }
  });

  it('POST /auth/refresh without a refresh token is 401', async () => {
    for (const body of [undefined, {}, { refresh_token: '' }]) {
      const answer = await t.api.post('/auth/refresh', body);
      expect(answer.status).toBe(401);
      expect(answer.body.error.code).toBe('invalid_refresh_token');
    }
  });
});

describe('bodies sent without Content-Type or as text/plain', () => {
  const login = () => JSON.stringify({ email: user.email, password: PASSWORD });

  it('a JSON object sent as text/plain or without a Content-Type is read as JSON', async () => {
    expect((await t.api.post('/auth/login', undefined, { raw: login(), headers: { 'content-type': 'text/plain' } })).status).toBe(200);
    // fetch adds text/plain to a string body: a Blob without a type goes out with no Content-Type at all.
    const untyped = await fetch(`${t.platform.url}/auth/login`, { method: 'POST', body: new Blob([login()]) });
    expect(untyped.status).toBe(200);
  });

  it.each([
    ['XML', 'application/xml', '<login/>'],
    ['a form', 'application/x-www-form-urlencoded', 'email=a%40b.c&password=x'],
    ['text that is not a JSON object', 'text/plain', '[1, 2]'],
    ['text that is not JSON', 'text/plain', 'email=a'],
  ])('%s is 415 unsupported_media_type, never read as an empty body', async (_name, type, raw) => {
    const answer = await t.api.post('/auth/login', undefined, { raw, headers: { 'content-type': type } });
    expect(answer.status).toBe(415);
    expect(answer.body.error.code).toBe('unsupported_media_type');
  });
});

describe('the organization role', () => {
  it('is the same in signup, login, verify-email and /auth/me', async () => {
    const email = uniqueEmail('role');
    const signup = await t.api.post('/auth/signup', { email, password: PASSWORD });
    const verified = await t.api.post('/auth/verify-email', { token: await t.mailbox.waitForToken(email, 'verify-email') });
    const login = await t.api.post('/auth/login', { email, password: PASSWORD });
    const me = await t.api.get('/auth/me', { token: login.body.data.access_token });
    const roles = [signup.body.data.user, verified.body.data.user, login.body.data.user, me.body.data].map((shown) => shown.default_organization.role);
    expect(roles).toEqual(['owner', 'owner', 'owner', 'owner']);
  });
});

describe('POST /publishers/{slug}/estimate', () => {
  it('needs only the slug; a publisher_id given must be that publisher’s (400 otherwise)', async () => {
    const publisher = await createPublisher(t, user.accessToken);
    const bySlug = await t.api.post(`/publishers/${publisher.slug}/estimate`, { query: 'anything' });
    expect(bySlug.status).toBe(200);
    expect(bySlug.body.data.estimated_cost).toEqual(expect.any(String));
    expect((await t.api.post(`/publishers/${publisher.slug}/estimate`, { publisher_id: publisher.id })).status).toBe(200);
    const other = await t.api.post(`/publishers/${publisher.slug}/estimate`, { publisher_id: randomUUID() });
    expect(other.status).toBe(400);
    expect(other.body.error.code).toBe('publisher_mismatch');
  });
});

describe('split mode: a variable the marketplace subgraph refuses over HTTP', () => {
  let subgraph: SubgraphProcess;
  let split: TestPlatform;

  beforeAll(async () => {
    subgraph = await startSubgraphProcess('marketplace', t.database.url, { ...secrets, SEED_CATALOGUE: 'false' }, t.platform.url);
    split = await startTestPlatform({ ...secrets, SUBGRAPH_MARKETPLACE_URL: subgraph.url }, { database: t.database });
  });
  afterAll(async () => {
    subgraph?.stop();
    await split?.close();
  });

  it('is 400 invalid_input naming the field, through GraphQL and REST', async () => {
    const agent = await registerAgent(split);
    const graphql = await split.api.graphql(
      'mutation($i: PublisherInput!) { createPublisher(input: $i) { id } }',
      { i: { name: 'x', slug: 'split-x', publisherCategory: 'compute', gatewayFeePercent: true } },
      { token: agent.api_key },
    );
    expect(graphql.status).toBe(400);
    expect(graphql.body.errors![0].extensions).toMatchObject({ code: 'invalid_input', status: 400, details: { variablePath: ['i', 'gatewayFeePercent'] } });
    const rest = await split.api.post('/publishers', publisherBody({ gateway_fee_percent: { a: 1 } }), { token: agent.api_key });
    expect(rest.status).toBe(400);
    expect(rest.body.error.message.startsWith('gateway_fee_percent must be')).toBe(true);
  });
});
