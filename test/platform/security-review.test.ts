import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer } from 'node:net';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { signUpVerified } from '../support/accounts.js';
import { createPublisher } from '../support/publishers.js';
import { fundedAgent } from '../support/funding.js';
import { RawConnection } from '../support/raw-http.js';

let t: TestPlatform;
let ownerToken: string;
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
  t = await startTestPlatform({ PROXY_ALLOW_PRIVATE_UPSTREAMS: 'true', PROXY_TIMEOUT_MS: '1000' });
  ownerToken = (await signUpVerified(t)).accessToken;
  agentKey = (await fundedAgent(t, '5.00')).api_key;
  const apiUrl = `http://127.0.0.1:${await closedPort()}/`;
  const endpoints = [{ method: 'POST', path: '/v1/batch', description: 'Batch' }];
  unreachable = await createPublisher(t, ownerToken, { api_url: apiUrl, endpoints, undocumented_endpoint_policy: 'default_deny' });
  paused = await createPublisher(t, ownerToken, { api_url: apiUrl, endpoints, is_active: false });
});
afterAll(() => t.close());

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
