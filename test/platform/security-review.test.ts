import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer } from 'node:net';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { signUpVerified } from '../support/accounts.js';
import { createPublisher } from '../support/publishers.js';
import { fundedAgent } from '../support/funding.js';
import { RawConnection } from '../support/raw-http.js';
import { randomUUID } from 'node:crypto';
import type { Express } from 'express';
import { getNamedType, getNullableType, isEnumType, isInputObjectType, isListType, type GraphQLInputType } from 'graphql';
import { restRoutes } from '../../rest-adapter/routes/index.js';
import { prepareRoute } from '../../rest-adapter/router.js';
import { snakeCase } from '../../rest-adapter/case.js';
import { FakeStripe } from '../fakes/stripe-server.js';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream-server.js';

let t: TestPlatform;
let stripe: FakeStripe;
let upstream: FakeUpstream;
let ownerToken: string;
let owner: Awaited<ReturnType<typeof signUpVerified>>;
let reachable: Record<string, any>;
let agentKey: string;
let unreachable: Record<string, any>;
let paused: Record<string, any>;

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  stripe = await new FakeStripe().start();
  upstream = await startFakeUpstream();
  t = await startTestPlatform({
    PROXY_ALLOW_PRIVATE_UPSTREAMS: 'true',
    PROXY_TIMEOUT_MS: '1000',
    STRIPE_SECRET_KEY: 'sk_test_fuzz',
    STRIPE_WEBHOOK_SECRET: 'whsec_fuzz',
    STRIPE_API_URL: stripe.url,
  });
  owner = await signUpVerified(t);
  ownerToken = owner.accessToken;
  agentKey = (await fundedAgent(t, '5.00')).api_key;
  const apiUrl = `http://127.0.0.1:${await closedPort()}/`;
  const endpoints = [{ method: 'POST', path: '/v1/batch', description: 'Batch' }];
  unreachable = await createPublisher(t, ownerToken, { api_url: apiUrl, endpoints, undocumented_endpoint_policy: 'default_deny' });
  paused = await createPublisher(t, ownerToken, { api_url: apiUrl, endpoints, is_active: false });
  reachable = await createPublisher(t, ownerToken, { api_url: upstream.url });
});
afterAll(async () => {
  await t.close();
  await upstream.close();
  await stripe.close();
});

const BIG = 3 * 1024 * 1024;

/** A request with a body of `size` bytes, written raw on a keep-alive connection. */
function bigRequest(method: string, path: string, headers: Record<string, string>, size = BIG): Buffer {
  const head = [`${method} ${path} HTTP/1.1`, 'Host: platform.test', 'Connection: keep-alive', `Content-Length: ${size}`, ...Object.entries(headers).map(([n, v]) => `${n}: ${v}`)];
  return Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`), Buffer.alloc(size, 0x61)]);
}

describe('an answer given before the body was read leaves the connection usable or closes it, never hung', () => {
  const cases: [string, () => Buffer, number][] = [
    ['the proxy, upstream unreachable (502)', () => bigRequest('POST', `/publishers/${unreachable.slug}/v1/batch`, { authorization: `Bearer ${agentKey}`, 'content-type': 'application/octet-stream' }), 502],
    ['the proxy, no credential (401)', () => bigRequest('POST', `/publishers/${unreachable.slug}/v1/batch`, {}), 401],
    ['the proxy, undocumented path (403)', () => bigRequest('POST', `/publishers/${unreachable.slug}/v1/other`, { authorization: `Bearer ${agentKey}` }), 403],
    ['the proxy, paused publisher (403)', () => bigRequest('POST', `/publishers/${paused.slug}/v1/batch`, { authorization: `Bearer ${agentKey}` }), 403],
    ['the proxy, unknown publisher (404)', () => bigRequest('PUT', '/publishers/no-such-publisher/v1/batch', { authorization: `Bearer ${agentKey}` }), 404],
    ['the proxy, empty segment (400)', () => bigRequest('POST', `/publishers/${unreachable.slug}//x`, { authorization: `Bearer ${agentKey}` }), 400],
    ['a logo upload without a credential (401)', () => bigRequest('PUT', `/publishers/${unreachable.slug}/logo`, { 'content-type': 'image/png' }), 401],
    ['a Stripe webhook over its limit (413)', () => bigRequest('POST', '/webhooks/stripe', { 'content-type': 'application/json' }), 413],
    ['a crypto deposit over its limit (413)', () => bigRequest('POST', '/wallet/deposit/crypto', { authorization: `Bearer ${agentKey}`, 'content-type': 'application/json' }), 413],
    ['a REST route over the JSON limit (413)', () => bigRequest('POST', '/auth/login', { 'content-type': 'application/json' }), 413],
  ];

  it.each(cases)('%s', async (_name, request, status) => {
    const connection = await RawConnection.open(t.platform.url);
    try {
      connection.write(request());
      const first = await connection.next();
      expect(first?.status).toBe(status);
      expect(JSON.parse(first!.body).error.code).toEqual(expect.any(String));
      if (first!.headers.connection === 'close') return;
      connection.write('GET /healthz HTTP/1.1\r\nHost: platform.test\r\n\r\n');
      const second = await connection.next();
      // Either answered on the same connection, or closed by the server: the client is never left waiting.
      if (second) expect(second.status).toBe(200);
    } finally {
      connection.close();
    }
  });
});

describe('requests Node’s HTTP parser refuses are answered in the platform’s error shape', () => {
  const cases: [string, string, number, string][] = [
    ['malformed framing (a Content-Length that is not a number)', 'POST /auth/login HTTP/1.1\r\nHost: platform.test\r\nContent-Length: abc\r\n\r\n', 400, 'malformed_request'],
    ['both Content-Length and chunked', 'POST /auth/login HTTP/1.1\r\nHost: platform.test\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', 400, 'malformed_request'],
    ['headers over the limit', `GET /healthz HTTP/1.1\r\nHost: platform.test\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'headers_too_large'],
  ];

  it.each(cases)('%s', async (_name, request, status, code) => {
    const connection = await RawConnection.open(t.platform.url);
    try {
      connection.write(request);
      const answer = await connection.next();
      expect(answer?.status).toBe(status);
      expect(answer!.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(answer!.body)).toEqual({ error: { code, message: expect.any(String) } });
    } finally {
      connection.close();
    }
  });
});

/** Values of every JSON type; each input field gets each one of another type than its own. */
const WRONG_VALUES: unknown[] = [true, 12.5, 'text', [1, 'a'], { a: 1 }];
const jsonTypeOf = (value: unknown) => (Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value);
/** Two wrong values per field, taken in turn (`turn`) so that every wrong type is sent across a row's fields. */
function wrongFor(value: unknown, turn: number): unknown[] {
  const wrong = WRONG_VALUES.filter((candidate) => jsonTypeOf(candidate) !== jsonTypeOf(value));
  return [wrong[turn % wrong.length], wrong[(turn + 1) % wrong.length]];
}

function valueAt(value: unknown, path: (string | number)[]): unknown {
  return path.reduce<any>((current, step) => current?.[step], value);
}

/** A value of the right shape for each input type: every field filled, so each can be made wrong in turn. */
function sample(type: GraphQLInputType, depth = 0): unknown {
  const nullable = getNullableType(type) as GraphQLInputType;
  if (isListType(nullable)) return [sample(nullable.ofType, depth + 1)];
  if (isInputObjectType(nullable)) {
    if (depth > 4) return {};
    return Object.fromEntries(Object.values(nullable.getFields()).map((field) => [snakeCase(field.name), sample(field.type, depth + 1)]));
  }
  if (isEnumType(nullable)) return nullable.getValues()[0]!.name;
  const scalars: Record<string, unknown> = { Int: 1, Float: 1, Boolean: true, ID: randomUUID(), Decimal: '1', SafeInt: 1, JSON: {}, JSONObject: {}, DateTimeISO: new Date().toISOString() };
  return getNamedType(nullable).name in scalars ? scalars[getNamedType(nullable).name] : 'x';
}

/** Every path to a field in a sampled body, containers included. */
function fieldPaths(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.flatMap((item, index) => [[...path, index], ...fieldPaths(item, [...path, index])]);
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([key, item]) => [[...path, key], ...fieldPaths(item, [...path, key])]);
  return [];
}

function replaced(value: unknown, path: (string | number)[], by: unknown): unknown {
  if (path.length === 0) return by;
  const copy: any = Array.isArray(value) ? [...value] : { ...(value as object) };
  copy[path[0]!] = replaced(copy[path[0]!], path.slice(1), by);
  return copy;
}

/** Runs `work` over `items`, `width` at a time. */
async function inBatches<T>(items: T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  for (let start = 0; start < items.length; start += width) await Promise.all(items.slice(start, start + width).map(work));
}

interface Probe {
  method: string;
  path: string;
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
}

/** Every route the app serves (REST rows, raw routes, the proxy), read from Express's own table. */
function servedRoutes(app: Express): { method: string; path: string }[] {
  const found: { method: string; path: string }[] = [];
  const walk = (stack: any[]) => {
    for (const layer of stack) {
      if (layer.route) for (const method of Object.keys(layer.route.methods)) found.push({ method: method.toUpperCase(), path: layer.route.path });
      else if (layer.handle?.stack) walk(layer.handle.stack);
    }
  };
  walk((app as any).router.stack);
  return found;
}

describe('fuzz: every route with wrong-typed values for every input field', () => {
  // About 1,000 requests: a few seconds on an idle machine; the bound is for a shared, loaded one.
  it('never answers 5xx', async () => {
    const app = t.platform.httpServer.listeners('request')[0] as Express;
    const token = owner.accessToken;
    const paramValue = (name: string) =>
      name === 'organization_id' ? 'default' : name === 'slug' ? reachable.slug : name === 'path' ? 'v1/anything' : randomUUID();
    const fill = (path: string) => path.replace(/:(\w+)/g, (_m, name) => paramValue(name)).replace(/\*(\w+)/g, (_m, name) => paramValue(name));
    const probes: Probe[] = [];

    // The REST rows: a full body of the right shape, then each field in turn of each wrong type.
    // Routes that end the caller's session run last.
    const rows = [...restRoutes].sort((a, b) => Number(a.path === '/auth/logout') - Number(b.path === '/auth/logout'));
    for (const route of rows) {
      const prepared = prepareRoute(route, t.platform.apiSchema);
      const path = fill(route.path);
      const bodies: unknown[] = [undefined, [], 'text', 7, null];
      for (const [name, type] of prepared.variableTypes) {
        const base = isInputObjectType(getNullableType(type)) ? sample(type) : { [snakeCase(name)]: sample(type) };
        bodies.push(base);
        for (const [turn, field] of fieldPaths(base).entries()) for (const wrong of wrongFor(valueAt(base, field), turn)) bodies.push(replaced(base, field, wrong));
        // Query parameters of reads: each variable's name, wrong, and given twice.
        if (route.method === 'GET') {
          const names = isInputObjectType(getNullableType(type)) ? Object.keys(base as object) : [snakeCase(name)];
          for (const query of names) for (const wrong of ['text', '-1', '1.5', '99999999999999999999', '%00']) probes.push({ method: 'GET', path: `${path}?${query}=${wrong}&${query}=x` });
        }
      }
      // fetch sends no body with a GET.
      if (route.method !== 'GET') {
        for (const body of bodies) probes.push({ method: route.method, path, body });
        probes.push({ method: route.method, path, raw: '{"a":', headers: { 'content-type': 'application/json' } });
      }
      probes.push({ method: route.method, path: route.path.replace(/:(\w+)/g, '%E0%A4%A'), body: route.method === 'GET' ? undefined : {} });
    }

    // Raw routes and the proxy: junk in every shape their bodies come in, and odd path values.
    const raw = servedRoutes(app).filter((served) => !restRoutes.some((row) => row.path === served.path && row.method === served.method));
    for (const served of raw) {
      const methods = served.method === '_ALL' ? ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] : [served.method];
      for (const method of methods) {
        for (const path of [fill(served.path), served.path.replace(/[:*](\w+)/g, 'x'), served.path.replace(/[:*](\w+)/g, '%FF')]) {
          if (method === 'GET') {
            probes.push({ method, path, headers: { 'x-payment': 'not-base64!', 'if-none-match': '"x"' } });
            continue;
          }
          for (const wrong of [...WRONG_VALUES, { amount: true, publisher_id: 5 }, { amount: ['1'], publisher_id: 'x' }]) probes.push({ method, path, body: wrong });
          for (const [type, text] of [['application/json', '{"a":'], ['text/plain', 'hello'], ['image/png', '\u0089PNG'], ['application/x-www-form-urlencoded', 'a=1&a=2']]) {
            probes.push({ method, path, raw: text, headers: { 'content-type': type!, 'stripe-signature': 't=1,v1=00', 'x-payment': 'not-base64!' } });
          }
        }
      }
    }

    const failures: string[] = [];
    await inBatches(probes, 16, async (probe) => {
      const answer = await t.api.request(probe.method, probe.path, probe.body, { token, raw: probe.raw, headers: probe.headers });
      if (answer.status >= 500) failures.push(`${probe.method} ${probe.path} ${JSON.stringify(probe.body ?? probe.raw)?.slice(0, 200)} -> ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
    });
    // The count is part of the closing note; the rule is that none failed.
    console.log(`fuzz: ${probes.length} requests over ${restRoutes.length} REST rows and ${raw.length} raw routes, ${failures.length} answered 5xx`);
    expect(failures).toEqual([]);
  }, 180_000);
});
