import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startFakeServer, type FakeServer } from '../fakes/listen.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { signUpVerified } from '../support/accounts.js';
import { createPublisher } from '../support/publishers.js';
import { fundedAgent } from '../support/funding.js';

const DASHBOARD = 'https://dash.example';
/** A base64-style key, as many upstreams issue them. */
const KEY = 'sk/live+Key0123456789==';

let t: TestPlatform;
let upstream: FakeServer;
let ownerToken: string;

beforeAll(async () => {
  upstream = await startFakeServer((req, _body, res) => {
    const url = new URL(req.url ?? '/', 'http://upstream.invalid');
    const key = url.searchParams.get('api_key') ?? '';
    if (url.pathname === '/v1/vary') return void res.writeHead(200, { 'content-type': 'application/json', vary: 'Accept-Encoding' }).end('{}');
    // Not a list of header names ("/" is not a token character): an HTTP client takes it all the same.
    if (url.pathname === '/v1/odd-vary') return void res.writeHead(200, { 'content-type': 'application/json', vary: 'Accept/Encoding' }).end('{"ok":true}');
    // A redirect that hands the key on under another name, encoded by a form encoder with lowercase hex.
    if (url.pathname === '/v1/handoff') {
      const lower = encodeURIComponent(key).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase());
      return void res.writeHead(302, { location: `/v1/next?token=${lower}` }).end();
    }
    // A login wall that sends the caller back to the URL it asked for (the injected key in it), encoded once more as a parameter.
    if (url.pathname === '/v1/login-wall') return void res.writeHead(302, { location: `https://login.example/?return_to=${encodeURIComponent(req.url ?? '')}` }).end();
    // The same, with a stray "%" elsewhere in the URL (not valid percent-encoding: a whole-string decode fails).
    if (url.pathname === '/v1/handoff-percent') {
      return void res.writeHead(302, { location: `/v1/next?token=${encodeURIComponent(key)}&discount=50%` }).end();
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  t = await startTestPlatform({ PROXY_ALLOW_PRIVATE_UPSTREAMS: 'true', CORS_ALLOWED_ORIGINS: DASHBOARD });
  ownerToken = (await signUpVerified(t)).accessToken;
});
afterAll(async () => {
  await t.close();
  await upstream.close();
});

const publisher = () =>
  createPublisher(t, ownerToken, {
    api_url: `${upstream.url}/v1`,
    api_key_header: null,
    api_key_query_param: 'api_key',
    upstream_api_key: KEY,
    endpoints: [],
    undocumented_endpoint_policy: 'default_allow',
    pricing: [{ pricing_model: 'per_request', price_per_call: '0.01' }],
  });

describe('the caller’s copy of a publisher’s answer headers', () => {
  it('keeps Vary: Origin for a listed origin when the upstream sends its own Vary (a shared cache must not mix origins)', async () => {
    const pub = await publisher();
    const agent = await fundedAgent(t);
    const answered = await t.api.get(`/publishers/${pub.slug}/vary`, { token: agent.api_key, headers: { origin: DASHBOARD } });
    expect(answered.status).toBe(200);
    expect(answered.headers.get('access-control-allow-origin')).toBe(DASHBOARD);
    expect(answered.headers.get('vary')).toBe('Origin, Accept-Encoding');
  });

  it.each([
    ['whatever the percent-encoding an upstream echoes it with (here lower-case hex, under another name): the header is dropped', 'handoff'],
    ['when another part of the header is not valid percent-encoding (a stray "%")', 'handoff-percent'],
    ['inside a URL passed on as a parameter (a return_to: the key is encoded twice)', 'login-wall'],
  ])('never shows the injected key %s', async (_case, path) => {
    const pub = await publisher();
    const agent = await fundedAgent(t);
    const answered = await t.api.get(`/publishers/${pub.slug}/${path}`, { token: agent.api_key });
    expect(answered.status).toBe(302);
    expect(answered.headers.get('location')).toBeNull();
  });

  it('an upstream Vary that is not a list of header names does not cost the caller the answer it paid for', async () => {
    const pub = await publisher();
    const agent = await fundedAgent(t);
    const answered = await t.api.get(`/publishers/${pub.slug}/odd-vary`, { token: agent.api_key, headers: { origin: DASHBOARD } });
    expect([answered.status, answered.body]).toEqual([200, { ok: true }]);
    expect(answered.headers.get('x-charge-amount')).not.toBeNull();
    expect(answered.headers.get('vary')).toContain('Origin');
  });
});
