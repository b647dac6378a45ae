import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isBlockedAddress } from '../../shared/http/blocked-addresses.js';
import { UpstreamClient } from '../../shared/http/upstream-client.js';

describe('blocked addresses', () => {
  it.each([
    '127.0.0.1', '127.8.9.10', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1',
    '0.0.0.0', '224.0.0.1', '::1', '::', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:a9fe:a9fe', '64:ff9b::a00:1',
    '::7f00:1', '::127.0.0.1', '::ffff:0:7f00:1', '64:ff9b:1::a00:1', '2002:7f00:1::1', '2001:0:4136:e378::1',
  ])('refuses %s', (address) => expect(isBlockedAddress(address)).toBe(true));

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '2001:4860:4860::8888'])('allows %s', (address) =>
    expect(isBlockedAddress(address)).toBe(false),
  );
});

let target: Server;
let redirector: Server;
const portOf = (server: Server) => (server.address() as AddressInfo).port;
const originOf = (server: Server) => `http://127.0.0.1:${portOf(server)}`;

beforeAll(async () => {
  target = createServer((_req, res) => res.end('reached'));
  redirector = createServer((req, res) => {
    const to: Record<string, string> = {
      '/start': '/final',
      '/to-https': 'https://127.0.0.1/final',
      '/to-https-other-port': `https://127.0.0.1:${portOf(target)}/final`,
      '/to-other-port': `${originOf(target)}/secret`,
      '/to-other-host': `http://localhost:${portOf(redirector)}/final`,
    };
    if (req.url === '/final') return void res.end(`final ${req.method} ${req.headers['x-api-key'] ?? ''}`);
    if (req.url === '/see-other') return void res.writeHead(303, { location: '/echo-body' }).end();
    if (req.url === '/echo-body') {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      return void req.on('end', () => res.end(`${req.method} [${req.headers['content-type'] ?? ''}] [${body}]`));
    }
    res.writeHead(302, { location: to[req.url!] ?? '/final' }).end();
  });
  await Promise.all([target, redirector].map((server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))));
});
afterAll(() => Promise.all([target, redirector].map((server) => new Promise((resolve) => server.close(resolve)))));

const client = (allowPrivate: boolean, allowedOrigins: string[] = []) =>
  new UpstreamClient({ timeoutMs: 2000, maxBufferedBytes: 1024, destinations: { allowPrivate, allowedOrigins: new Set(allowedOrigins) } });

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(() => null, (caught) => caught);
  return error && { status: error.status, code: error.code };
}

describe('the upstream client', () => {
  it.each(['http://127.0.0.1:9/', 'http://10.0.0.1/', 'http://169.254.169.254/latest/meta-data/', 'http://[::1]:9/'])(
    'refuses %s before connecting',
    async (url) => {
      const guarded = client(false);
      expect(await refusal(guarded.send({ url: new URL(url), method: 'GET', headers: {} }))).toEqual({ status: 502, code: 'upstream_address_blocked' });
      await guarded.close();
    },
  );

  it('refuses a hostname that resolves to loopback, after resolution', async () => {
    const guarded = client(false);
    const url = new URL(`http://localhost:${portOf(target)}/`);
    expect(await refusal(guarded.send({ url, method: 'GET', headers: {} }))).toEqual({ status: 502, code: 'upstream_address_blocked' });
    await guarded.close();
  });

  it('in development, lets a loopback upstream through (by address or by name) and nothing else private', async () => {
    const development = new UpstreamClient({ timeoutMs: 2000, maxBufferedBytes: 1024, destinations: { allowPrivate: false, allowLoopback: true, allowedOrigins: new Set() } });
    for (const url of [`${originOf(target)}/`, `http://localhost:${portOf(target)}/`]) {
      expect((await development.fetchBuffered({ url: new URL(url), method: 'GET', headers: {} })).body.toString()).toBe('reached');
    }
    for (const url of ['http://10.0.0.1/', 'http://169.254.169.254/latest/meta-data/', 'http://192.168.1.1/', 'http://[fd00::1]/', 'http://0.0.0.0:9/']) {
      expect(await refusal(development.send({ url: new URL(url), method: 'GET', headers: {} }))).toEqual({ status: 502, code: 'upstream_address_blocked' });
    }
    await development.close();
  });

  it('lets an allowed origin through, and only that origin: not its host on another port or scheme', async () => {
    const allowed = `http://localhost:${portOf(target)}`;
    const guarded = client(false, [allowed]);
    expect((await guarded.fetchBuffered({ url: new URL(`${allowed}/`), method: 'GET', headers: {} })).body.toString()).toBe('reached');
    for (const url of [`http://localhost:${portOf(redirector)}/`, `https://localhost:${portOf(target)}/`]) {
      expect(await refusal(guarded.send({ url: new URL(url), method: 'GET', headers: {} }))).toEqual({ status: 502, code: 'upstream_address_blocked' });
    }
    await guarded.close();
  });

  it('follows a redirect on the same origin, with the request’s headers', async () => {
    const open = client(true);
    const response = await open.fetchBuffered({ url: new URL(`${originOf(redirector)}/start`), method: 'GET', headers: { 'x-api-key': 'k' } });
    expect(response.body.toString()).toBe('final GET k');
    await open.close();
  });

  it('follows a 303 with a GET that carries no body (the credentials in it stay behind)', async () => {
    const open = client(true);
    const request = { url: new URL(`${originOf(redirector)}/see-other`), method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"client_secret":"s"}' };
    expect((await open.fetchBuffered(request)).body.toString()).toBe('GET [] []');
    await open.close();
  });

  it.each(['/to-other-port', '/to-other-host', '/to-https-other-port'])('refuses to carry the request’s secrets on a redirect elsewhere (%s)', async (path) => {
    const open = client(true);
    const request = { url: new URL(`${originOf(redirector)}${path}`), method: 'POST', headers: { 'x-api-key': 'k' }, body: 'client_secret=s' };
    expect(await refusal(open.fetchBuffered(request))).toEqual({ status: 502, code: 'upstream_redirect_refused' });
    await open.close();
  });

  it('checks a redirect from an allowed origin to https on the same host again, as a new destination', async () => {
    const guarded = client(false, [originOf(redirector)]);
    const request = { url: new URL(`${originOf(redirector)}/to-https`), method: 'GET', headers: {} };
    expect(await refusal(guarded.fetchBuffered(request))).toEqual({ status: 502, code: 'upstream_address_blocked' });
    await guarded.close();
  });

  it('caps buffered bodies', async () => {
    const tiny = new UpstreamClient({ timeoutMs: 2000, maxBufferedBytes: 3, destinations: { allowPrivate: true, allowedOrigins: new Set() } });
    expect(await refusal(tiny.fetchBuffered({ url: new URL(originOf(target)), method: 'GET', headers: {} }))).toEqual({ status: 502, code: 'upstream_response_too_large' });
    await tiny.close();
  });

  it('answers 502 for a refused connection and refuses non-http schemes', async () => {
    const open = client(true);
    expect(await refusal(open.send({ url: new URL('http://127.0.0.1:9/'), method: 'GET', headers: {} }))).toEqual({ status: 502, code: 'upstream_unreachable' });
    expect(await refusal(open.send({ url: new URL('file:///etc/passwd'), method: 'GET', headers: {} }))).toEqual({ status: 502, code: 'upstream_scheme_not_allowed' });
    await open.close();
  });
});
