import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import express from 'express';
import { Validator } from '@seriousme/openapi-schema-validator';
import { pino } from 'pino';
import { openApiPath } from '../../rest-adapter/openapi/document.js';
import { rawRoutesOf } from '../../rest-adapter/openapi/raw-routes.js';
import { restRoutes } from '../../rest-adapter/routes/index.js';
import { subgraphModules } from '../../gateway/subgraphs.js';
import { PASSWORD, signUpVerified, uniqueEmail } from '../support/accounts.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';

const logLines: string[] = [];
/** Outside production the mail's own log line carries its link on purpose (to click it); no other line may. */
const loggedElsewhere = (token: string) => logLines.some((line) => line.includes(token) && !line.includes('"msg":"mail written'));
let t: TestPlatform;
beforeAll(async () => {
  t = await startTestPlatform({}, { log: pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) }) });
});
afterAll(() => t.close());

/** A page as a browser fetches it. */
const open = (path: string, init: RequestInit = {}) =>
  fetch(`${t.platform.url}${path}`, { ...init, headers: { accept: 'text/html', ...(init.headers ?? {}) }, redirect: 'manual' });
const submit = (path: string, fields: Record<string, string>) =>
  open(path, { method: 'POST', body: new URLSearchParams(fields), headers: { 'content-type': 'application/x-www-form-urlencoded' } });

/** Every src and href a page loads or links to. */
const referencesOf = (page: string) => [...page.matchAll(/(?:src|href|action)="([^"]*)"/g)].map((match) => match[1]!);

describe('pages a person opens', () => {
  it('GET / links the IDE, the references, llms.txt, health and readiness, and shows the version', async () => {
    const response = await open('/');
    const page = await response.text();
    expect(response.status).toBe(200);
    for (const link of ['/graphql', '/docs', '/openapi.json', '/llms.txt', '/healthz', '/readyz']) expect(referencesOf(page)).toContain(link);
    expect(page).toContain('0.1.0');
  });

  it('load nothing from another origin, under the pages’ own policy', async () => {
    for (const path of ['/', '/graphql', '/docs', '/verify-email?token=AAAAAAAAAAAAAAAAAAAAAA', '/reset-password?token=AAAAAAAAAAAAAAAAAAAAAA']) {
      const response = await open(path);
      const page = await response.text();
      expect([path, response.headers.get('content-security-policy')]).toEqual([path, expect.stringContaining("script-src 'self'")]);
      expect([path, referencesOf(page).filter((ref) => /^(https?:)?\/\//.test(ref))]).toEqual([path, []]);
    }
  });

  it('GET /graphql in a browser is the IDE, its scripts served from here; a GraphQL client still gets GraphQL', async () => {
    const page = await (await open('/graphql')).text();
    const scripts = [...page.matchAll(/<script src="([^"]+)"/g)].map((match) => match[1]!);
    expect(scripts).toEqual(['/assets/react.js', '/assets/react-dom.js', '/assets/graphiql.js', '/assets/graphiql-start.js']);
    for (const script of scripts) {
      const asset = await fetch(`${t.platform.url}${script}`);
      expect([script, asset.status, asset.headers.get('content-type')]).toEqual([script, 200, expect.stringContaining('javascript')]);
    }
    const client = await fetch(`${t.platform.url}/graphql?query=${encodeURIComponent('{ __typename }')}`, { headers: { accept: 'application/json', 'apollo-require-preflight': 'true' } });
    expect(await client.json()).toEqual({ data: { __typename: 'Query' } });
  });

  it('GET /llms.txt is a plain-text guide from registering to a paid call', async () => {
    const response = await fetch(`${t.platform.url}/llms.txt`);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const text = await response.text();
    for (const step of ['/auth/agent', '/wallet/dev-credits', '/publishers?search=', '/estimate', '/wallet/transactions', '/openapi.json']) expect(text).toContain(step);
  });
});

describe('the e-mail link pages', () => {
  it('verify an address only when the button is pressed (a prefetch spends nothing), once, and never log the token', async () => {
    const email = uniqueEmail();
    await t.api.post('/auth/signup', { email, password: PASSWORD });
    const link = new URL(await t.mailbox.waitForLink(email, 'verify-email'));
    expect(link.origin).toBe('http://app.test');
    const token = link.searchParams.get('token')!;
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    for (let i = 0; i < 2; i++) {
      const page = await (await open(`/verify-email${link.search}`)).text();
      expect(page).toContain('<form method="post" action="/verify-email">');
    }
    const confirmed = await submit('/verify-email', { token });
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toContain(`${email} is confirmed`);
    expect((await t.api.post('/auth/login', { email, password: PASSWORD })).status).toBe(200);
    const again = await submit('/verify-email', { token });
    expect(again.status).toBe(400);
    expect(await again.text()).toContain('token_already_used');
    expect(loggedElsewhere(token)).toBe(false);
  });

  it('reset a password through the form, refusing a weak one with a way to try again', async () => {
    const user = await signUpVerified(t);
    await t.api.post('/auth/forgot-password', { email: user.email });
    const token = await t.mailbox.waitForToken(user.email, 'reset-password');
    expect(await (await open(`/reset-password?token=${token}`)).text()).toContain('type="password"');
    const weak = await submit('/reset-password', { token, password: 'short' });
    expect(weak.status).toBe(400);
    const weakPage = await weak.text();
    expect(weakPage).toContain('weak_password');
    expect(referencesOf(weakPage)).toContain(`/reset-password?token=${token}`);
    const done = await submit('/reset-password', { token, password: 'a brand new passphrase 7' });
    expect(done.status).toBe(200);
    expect((await t.api.post('/auth/login', { email: user.email, password: 'a brand new passphrase 7' })).status).toBe(200);
    expect(loggedElsewhere(token)).toBe(false);
  });

  it('answer a link without a valid token with a clear page', async () => {
    for (const path of ['/verify-email', '/reset-password?token=', '/verify-email?token=%3Cscript%3E']) {
      const response = await open(path);
      expect([path, response.status]).toEqual([path, 400]);
      expect(await response.text()).toContain('This link is incomplete');
    }
  });
});

describe('GET /openapi.json', () => {
  let document: any;
  beforeAll(async () => {
    document = await (await fetch(`${t.platform.url}/openapi.json`)).json();
  });

  it('is valid OpenAPI 3.1', async () => {
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('covers every REST row and every raw route, whatever the tables hold', async () => {
    const raw = express.Router();
    for (const module of subgraphModules) module.httpRoutes?.(raw, t.platform.services);
    const routes = [...restRoutes, ...rawRoutesOf(raw)];
    expect(rawRoutesOf(raw).length).toBeGreaterThan(0);
    const missing = routes.filter((route) => !document.paths[openApiPath(route.path)]?.[route.method.toLowerCase()]);
    expect(missing.map((route) => `${route.method} ${route.path}`)).toEqual([]);
    const docs = await (await open('/docs')).text();
    const undocumented = routes.filter((route) => !docs.includes(`<code>${openApiPath(route.path)}</code>`));
    expect(undocumented.map((route) => `${route.method} ${route.path}`)).toEqual([]);
  });

  it('describes parameters, bodies and answers from the GraphQL types, in snake_case', () => {
    const transactions = document.paths['/wallet/transactions'].get;
    expect(transactions.parameters.map((p: any) => [p.name, p.in, p.schema.type])).toEqual([['limit', 'query', 'integer'], ['offset', 'query', 'integer']]);
    const item = transactions.responses['200'].content['application/json'].schema.properties.data.items;
    expect(Object.keys(item.properties)).toEqual(expect.arrayContaining(['id', 'type', 'amount', 'balance_after', 'created_at']));
    const keys = document.paths['/organizations/{organization_id}/api-keys'].post;
    expect(keys.parameters).toContainEqual(expect.objectContaining({ name: 'organization_id', in: 'path', required: true }));
    expect(Object.keys(keys.requestBody.content['application/json'].schema.properties)).not.toContain('organization_id');
    expect(document.paths['/publishers'].get.parameters.map((p: any) => p.name)).toEqual(expect.arrayContaining(['search', 'category', 'is_verified', 'limit']));
    expect(document.paths['/auth/signup'].post.requestBody).toMatchObject({ required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/SignupInput' } } } });
    expect(document.components.schemas.SignupInput.required).toEqual(expect.arrayContaining(['email', 'password']));
    expect(document.paths['/publishers/suggest'].get.responses['200'].content['application/json'].schema.properties.data.items.properties).toHaveProperty('match_reason');
    expect(document.paths['/wallet/dev-credits'].post.security).toEqual([{ bearerAuth: [] }]);
    expect(document.paths['/auth/signup'].post.security).toEqual([{}, { bearerAuth: [] }]);
    expect(document.paths['/wallet/dev-credits'].post.responses.default.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
  });

  it('builds requests that succeed: register an agent, then read its balance', async () => {
    const server = document.servers[0].url as string;
    expect(server).toBe('http://app.test');
    const base = t.platform.url;
    const register: any = document.paths['/auth/agent'].post;
    const body = Object.fromEntries(Object.keys(document.components.schemas[register.requestBody.content['application/json'].schema.$ref.split('/').pop()].properties).filter((key) => key === 'name').map((key) => [key, 'from-openapi']));
    const registered = await fetch(`${base}/auth/agent`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(registered.status).toBe(Number(Object.keys(register.responses).find((code) => code !== 'default')));
    const agent = ((await registered.json()) as any).data.agent;
    const agentSchema = register.responses['201'].content['application/json'].schema.properties.data.properties.agent;
    expect(Object.keys(agent).sort()).toEqual(Object.keys(agentSchema.properties).sort());
    const balanceSchema = document.paths['/wallet/balance'].get.responses['200'].content['application/json'].schema.properties.data;
    const balance = await fetch(`${base}/wallet/balance`, { headers: { authorization: `Bearer ${agent.api_key}` } });
    expect(balance.status).toBe(200);
    expect(Object.keys(((await balance.json()) as any).data).sort()).toEqual(Object.keys(balanceSchema.properties).sort());
  });
});
