import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { signUpVerified } from '../support/accounts.js';
import { createPublisher } from '../support/publishers.js';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream-server.js';
import { loadConfig } from '../../shared/config.js';

const DASHBOARD = 'https://dash.example';
let t: TestPlatform;
let upstream: FakeUpstream;
beforeAll(async () => {
  upstream = await startFakeUpstream();
  t = await startTestPlatform({ CORS_ALLOWED_ORIGINS: `${DASHBOARD}/, https://other.example`, PROXY_ALLOWED_UPSTREAM_ORIGINS: upstream.url });
});
afterAll(async () => {
  await t.close();
  await upstream.close();
});

const preflight = (path: string, origin: string) =>
  t.api.request('OPTIONS', path, undefined, { headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' } });

describe('cross-origin access (CORS_ALLOWED_ORIGINS)', () => {
  it('answers a listed origin’s preflight itself, also under /publishers/ where OPTIONS is otherwise forwarded', async () => {
    const owner = await signUpVerified(t);
    const pub = await createPublisher(t, owner.accessToken, { api_url: upstream.url, undocumented_endpoint_policy: 'default_allow' });
    const before = upstream.requests.length;
    for (const path of ['/graphql', '/auth/login', `/publishers/${pub.slug}/echo/x`]) {
      const response = await preflight(path, DASHBOARD);
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe(DASHBOARD);
      expect(response.headers.get('access-control-allow-headers')).toContain('authorization');
      expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    }
    expect(upstream.requests.length).toBe(before);
  });

  it('lets a listed origin send a publisher’s passthrough headers and call with any forwarded method (OPTIONS too)', async () => {
    const owner = await signUpVerified(t);
    const pub = await createPublisher(t, owner.accessToken, { api_url: upstream.url, undocumented_endpoint_policy: 'default_allow', allowed_passthrough_headers: ['x-api-version'] });
    const response = await t.api.request('OPTIONS', `/publishers/${pub.slug}/echo/x`, undefined, {
      headers: { origin: DASHBOARD, 'access-control-request-method': 'OPTIONS', 'access-control-request-headers': 'authorization,x-api-version' },
    });
    expect(response.status).toBe(204);
    const allowedHeaders = (response.headers.get('access-control-allow-headers') ?? '').split(',').map((name) => name.trim());
    expect(allowedHeaders).toEqual(expect.arrayContaining(['authorization', 'x-api-version']));
    expect(response.headers.get('access-control-allow-methods')).toContain('OPTIONS');
    expect(response.headers.get('vary')).toContain('Access-Control-Request-Headers');
  });

  it('lets a listed origin read answers and every header (the charge headers, a publisher’s Link); any other origin gets no CORS headers', async () => {
    const allowed = await t.api.get('/publishers', { headers: { origin: DASHBOARD } });
    expect(allowed.headers.get('access-control-allow-origin')).toBe(DASHBOARD);
    expect(allowed.headers.get('access-control-expose-headers')).toBe('*');
    expect(allowed.headers.get('vary')).toContain('Origin');
    const stranger = await t.api.get('/publishers', { headers: { origin: 'https://evil.example' } });
    expect(stranger.headers.get('access-control-allow-origin')).toBeNull();
    expect((await preflight('/graphql', 'https://evil.example')).headers.get('access-control-allow-origin')).toBeNull();
  });

  it('is off by default, and an entry that is not an http(s) origin stops the start', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).corsAllowedOrigins).toEqual([]);
    expect(() => loadConfig({ NODE_ENV: 'test', CORS_ALLOWED_ORIGINS: 'dash.example' })).toThrow('CORS_ALLOWED_ORIGINS: entry 1 is not');
  });
});
