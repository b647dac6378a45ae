import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { EntityManager } from '@mikro-orm/postgresql';
import { SecretBox } from '../../shared/secret-box.js';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream-server.js';
import { startOidcServer, type OidcServer } from '../fakes/oidc-server.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { signUpVerified, type SignedInUser } from '../support/accounts.js';
import { createPublisher } from '../support/publishers.js';
import { fundWallet } from '../support/funding.js';
import { consentAtProvider, linkAccount } from '../support/oauth.js';
import { checkLedgerAfterEach } from '../support/wallet.js';

let t: TestPlatform;
let oidc: OidcServer;
let upstream: FakeUpstream;
let env: Record<string, string>;
let identProviderId: string;

beforeAll(async () => {
  oidc = await startOidcServer({ redirectUris: ['http://app.test/oauth/ident/callback'] });
  upstream = await startFakeUpstream();
  env = {
    PROXY_ALLOW_PRIVATE_UPSTREAMS: 'true',
    OAUTH_PROVIDERS: JSON.stringify([
      { slug: 'ident', name: 'Ident', issuer: oidc.issuer, client_id: oidc.clientId, client_secret: oidc.clientSecret, scopes: ['openid'] },
      // Nothing listens on the discard port: its discovery cannot be reached.
      { slug: 'offline', name: 'Offline', issuer: 'http://127.0.0.1:9', client_id: 'offline', client_secret: 'offline-secret', scopes: [] },
    ]),
    OAUTH_ALLOWED_REDIRECTS: 'https://app.example.com, https://dash.example.com/oauth/done',
  };
  t = await startTestPlatform(env);
  const owner = await signUpVerified(t);
  const providers = (await t.api.get('/oauth/providers', { token: owner.accessToken })).body.data;
  identProviderId = providers.find((p: any) => p.slug === 'ident').id;
});
afterAll(async () => {
  await t?.close();
  await upstream?.close();
  await oidc?.close();
});
checkLedgerAfterEach(() => t);

const em = () => t.platform.services.orm.em.fork() as EntityManager;
const box = () => new SecretBox(t.platform.services.config.secrets.SECRETS_KEY);
const authorize = (slug: string, redirect: string | null, token?: string) =>
  t.api.get(`/oauth/${slug}/authorize${redirect === null ? '' : `?redirect_uri=${encodeURIComponent(redirect)}`}`, { token });

/** A user with 1.00 in the wallet. */
async function fundedUser(): Promise<SignedInUser> {
  const user = await signUpVerified(t);
  await fundWallet(t, user.id, '1.00');
  return user;
}

describe('providers', () => {
  it('lists the configured providers with whether the caller is connected, never a client secret', async () => {
    const user = await signUpVerified(t);
    const response = await t.api.get('/oauth/providers', { token: user.accessToken });
    expect(response.status).toBe(200);
    expect(response.body.data.find((p: any) => p.slug === 'ident')).toMatchObject({
      name: 'Ident', scopes: ['openid'], organization_id: null, connected: false, callback_url: 'http://app.test/oauth/ident/callback',
    });
    expect(JSON.stringify(response.body)).not.toContain(oidc.clientSecret);
    expect((await t.api.get('/oauth/providers')).status).toBe(401);
  });
});

describe('authorization', () => {
  it('refuses without a credential (401), for an unknown provider (404), a missing or disallowed redirect (400), an unreachable provider (503)', async () => {
    const { accessToken } = await signUpVerified(t);
    expect((await authorize('ident', 'https://app.example.com/x')).status).toBe(401);
    expect((await authorize('nobody', 'https://app.example.com/x', accessToken)).body.error.code).toBe('oauth_provider_not_found');
    expect((await t.api.get(`/oauth/providers/${crypto.randomUUID()}/authorize?redirect_uri=https://app.example.com/`, { token: accessToken })).status).toBe(404);
    for (const redirect of [
      null,
      '',
      'not a url',
      'https://app.example.com.evil.net/linked',
      'https://app.example.com@evil.net/linked',
      'http://app.example.com/linked',
      'https://dash.example.com/oauth/done/more',
      'https://dash.example.com/oauth/doneX',
      'https://dash.example.com/other',
      'https://app.example.com/linked#fragment',
      'javascript:alert(1)',
    ]) {
      const response = await authorize('ident', redirect, accessToken);
      expect([redirect, response.status, response.body.error?.code]).toEqual([redirect, 400, 'invalid_redirect_uri']);
    }
    const offline = await authorize('offline', 'https://app.example.com/x', accessToken);
    expect([offline.status, offline.body.error.code]).toEqual([503, 'oauth_provider_unavailable']);
  });

  it('sends the user to the provider with a PKCE S256 challenge and a state, for redirects equal after normalisation', async () => {
    const { accessToken } = await signUpVerified(t);
    for (const redirect of ['HTTPS://APP.EXAMPLE.COM:443/welcome?tab=1', 'https://dash.example.com/oauth/done']) {
      const response = await authorize('ident', redirect, accessToken);
      expect(response.status).toBe(302);
      const location = new URL(response.headers.get('location')!);
      expect(location.origin).toBe(oidc.issuer);
      expect(Object.fromEntries(location.searchParams)).toMatchObject({
        response_type: 'code', client_id: oidc.clientId, redirect_uri: 'http://app.test/oauth/ident/callback', code_challenge_method: 'S256', scope: 'openid',
      });
      expect(location.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(location.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    }
  });

  it('links an account: consent at the provider, callback, a stored connection (tokens encrypted) that is the default, 302 to the redirect', async () => {
    const user = await signUpVerified(t);
    const linked = await linkAccount(t, user.accessToken, 'ident', 'alice');
    expect(linked.landing.origin + linked.landing.pathname).toBe('https://app.example.com/linked');
    expect(linked.landing.searchParams.get('status')).toBe('success');
    const connections = (await t.api.get('/oauth/connections', { token: user.accessToken })).body.data;
    expect(connections).toEqual([
      expect.objectContaining({
        id: linked.connectionId, provider_id: identProviderId, provider_slug: 'ident', account_id: 'alice', scopes: expect.arrayContaining(['openid']),
        is_default: true, status: 'active',
      }),
    ]);
    expect(Date.parse(connections[0].expires_at)).toBeGreaterThan(Date.now());
    const [row] = await em().execute('select access_token_sealed, refresh_token_sealed from oauth_connection where id = ?', [linked.connectionId]);
    const accessToken = box().decrypt(row.access_token_sealed);
    expect(await oidc.userinfo(accessToken)).toMatchObject({ sub: 'alice' });
    expect(row.access_token_sealed).not.toContain(accessToken);
    expect(box().decrypt(row.refresh_token_sealed)).toBeTruthy();
    expect(JSON.stringify(connections)).not.toContain(accessToken);
    const providers = (await t.api.get('/oauth/providers', { token: user.accessToken })).body.data;
    expect(providers.find((p: any) => p.slug === 'ident').connected).toBe(true);
  });
});
