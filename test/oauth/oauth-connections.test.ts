import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../../shared/logger.js';
import { SecretBox } from '../../shared/secret-box.js';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream-server.js';
import { startOidcServer, type OidcServer } from '../fakes/oidc-server.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { signUpVerified, type SignedInUser } from '../support/accounts.js';
import { createPublisher } from '../support/publishers.js';
import { fundWallet } from '../support/funding.js';
import { consentAtProvider, linkAccount } from '../support/oauth.js';
import { checkLedgerAfterEach } from '../support/wallet.js';
import { deleteStaleAuthorizationStates } from '../../subgraphs/oauth/sweeps.js';

let t: TestPlatform;
let oidc: OidcServer;
let upstream: FakeUpstream;
let env: Record<string, string>;
let identProviderId: string;
/** Everything the platform logged, at every level, and the secrets seen during the tests: none may be in it. */
const logged: string[] = [];
const secretsSeen = new Set<string>();

beforeAll(async () => {
  oidc = await startOidcServer({ redirectUris: ['http://app.test/oauth/ident/callback'] });
  upstream = await startFakeUpstream();
  env = {
    // Shared by the second platform process of the race: the same secrets, as replicas have.
    JWT_SECRET: randomBytes(32).toString('hex'),
    INTERNAL_SECRET: randomBytes(32).toString('hex'),
    SECRETS_KEY: randomBytes(32).toString('hex'),
    PROXY_ALLOW_PRIVATE_UPSTREAMS: 'true',
    OAUTH_PROVIDERS: JSON.stringify([
      { slug: 'ident', name: 'Ident', issuer: oidc.issuer, client_id: oidc.clientId, client_secret: oidc.clientSecret, scopes: ['openid'] },
      // Nothing listens on the discard port: its discovery cannot be reached.
      { slug: 'offline', name: 'Offline', issuer: 'http://127.0.0.1:9', client_id: 'offline', client_secret: 'offline-secret', scopes: [] },
    ]),
    OAUTH_ALLOWED_REDIRECTS: 'https://app.example.com, https://dash.example.com/oauth/done',
  };
  const sink = new Writable({ write: (chunk, _encoding, done) => void (logged.push(String(chunk)), done()) });
  t = await startTestPlatform(env, { log: pino({ level: 'trace' }, sink) as unknown as Logger });
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
    for (const name of ['code', 'state']) seen(linked.callback.searchParams.get(name)!);
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

/** A publisher on the local upstream acting on the caller's own Ident account. */
async function userOAuthPublisher(overrides: Record<string, unknown> = {}) {
  const owner = await signUpVerified(t);
  return createPublisher(t, owner.accessToken, {
    api_url: upstream.url,
    api_key_header: null,
    upstream_api_key: null,
    requires_user_oauth: true,
    oauth_provider_id: identProviderId,
    endpoints: [{ method: 'GET', path: '/echo/{thing}', description: 'Echo' }],
    pricing: [{ pricing_model: 'per_request', price_per_call: '0.01' }],
    ...overrides,
  });
}

const balanceOf = async (token: string) => (await t.api.get('/wallet/balance', { token })).body.data.balance as string;
const sealedTokens = async (connectionId: string) =>
  (await em().execute('select access_token_sealed, refresh_token_sealed, status from oauth_connection where id = ?', [connectionId]))[0];
const seen = (secret: string) => (secretsSeen.add(secret), secret);
const accessTokenOf = async (connectionId: string) => seen(box().decrypt((await sealedTokens(connectionId)).access_token_sealed));
const refreshTokenOf = async (connectionId: string) => seen(box().decrypt((await sealedTokens(connectionId)).refresh_token_sealed));
const expireToken = (connectionId: string, inSeconds = -5) =>
  em().execute(`update oauth_connection set expires_at = now() + make_interval(secs => ?) where id = ?`, [inSeconds, connectionId]);
/** The Authorization header the upstream received on its last request for `path`. */
const lastUpstreamRequest = (path: string) => [...upstream.requests].reverse().find((request) => request.path === path)!;

describe('the paid proxy passes the user’s own token', () => {
  it('sends the default connection’s token as Bearer to the upstream, which the provider honours, and never shows it in the answer’s headers', async () => {
    const user = await fundedUser();
    const { connectionId } = await linkAccount(t, user.accessToken, 'ident', 'bob');
    const pub = await userOAuthPublisher();
    const response = await t.api.get(`/publishers/${pub.slug}/echo/mail`, { token: user.accessToken });
    expect(response.status).toBe(200);
    const token = await accessTokenOf(connectionId!);
    expect(lastUpstreamRequest('/echo/mail').headers.authorization).toBe(`Bearer ${token}`);
    expect(await oidc.userinfo(token)).toMatchObject({ sub: 'bob' });
    expect([...response.headers].some(([, value]) => value.includes(token))).toBe(false);
    expect(response.headers.get('x-charge-amount')).toBeTruthy();
  });

  it('puts the token in api_key_header when the publisher names one', async () => {
    const user = await fundedUser();
    const { connectionId } = await linkAccount(t, user.accessToken, 'ident', 'carol');
    const pub = await userOAuthPublisher({ api_key_header: 'X-User-Token' });
    expect((await t.api.get(`/publishers/${pub.slug}/echo/header`, { token: user.accessToken })).status).toBe(200);
    const received = lastUpstreamRequest('/echo/header').headers;
    expect(received['x-user-token']).toBe(await accessTokenOf(connectionId!));
    expect(received.authorization).toBeUndefined();
  });

  it('without a connection: 400 oauth_connection_required naming the provider and where to authorize, nothing charged', async () => {
    const user = await fundedUser();
    const pub = await userOAuthPublisher();
    const before = await balanceOf(user.accessToken);
    const response = await t.api.get(`/publishers/${pub.slug}/echo/none`, { token: user.accessToken });
    expect([response.status, response.body.error.code]).toEqual([400, 'oauth_connection_required']);
    expect(response.body.error.message).toContain('ident');
    expect(response.body.error.message).toContain(`/oauth/providers/${identProviderId}/authorize`);
    expect(await balanceOf(user.accessToken)).toBe(before);
    expect(upstream.requests.some((request) => request.path === '/echo/none')).toBe(false);
  });
});

describe('refresh', () => {
  it('refreshes a token expiring within a minute before use, storing the rotated refresh token', async () => {
    const user = await fundedUser();
    const { connectionId } = await linkAccount(t, user.accessToken, 'ident', 'dave');
    const pub = await userOAuthPublisher();
    const [oldAccess, oldRefresh] = [await accessTokenOf(connectionId!), await refreshTokenOf(connectionId!)];
    await expireToken(connectionId!, 30);
    const refreshes = oidc.grants.refresh_token;
    expect((await t.api.get(`/publishers/${pub.slug}/echo/refreshed`, { token: user.accessToken })).status).toBe(200);
    expect(oidc.grants.refresh_token).toBe(refreshes + 1);
    const sent = lastUpstreamRequest('/echo/refreshed').headers.authorization;
    expect(sent).toBe(`Bearer ${await accessTokenOf(connectionId!)}`);
    expect(sent).not.toBe(`Bearer ${oldAccess}`);
    expect(await refreshTokenOf(connectionId!)).not.toBe(oldRefresh);
    const [connection] = (await t.api.get('/oauth/connections', { token: user.accessToken })).body.data;
    expect(Date.parse(connection.expires_at)).toBeGreaterThan(Date.now() + 60_000);
  });

  it('two platform processes refreshing one connection at once refresh it once and both send the fresh token', async () => {
    const second = await startTestPlatform(env, { database: t.database });
    try {
      const user = await fundedUser();
      const { connectionId } = await linkAccount(t, user.accessToken, 'ident', 'erin');
      const pub = await userOAuthPublisher();
      await expireToken(connectionId!);
      const [refreshes, refusals] = [oidc.grants.refresh_token, oidc.grants.refused];
      const answers = await Promise.all(
        [t, second, t, second].map((platform, index) => platform.api.get(`/publishers/${pub.slug}/echo/race-${index}`, { token: user.accessToken })),
      );
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
      // A second refresh with the rotated token would have been taken for theft, and the grant revoked.
      expect([oidc.grants.refresh_token, oidc.grants.refused]).toEqual([refreshes + 1, refusals]);
      const fresh = `Bearer ${await accessTokenOf(connectionId!)}`;
      expect([0, 1, 2, 3].map((index) => lastUpstreamRequest(`/echo/race-${index}`).headers.authorization)).toEqual([fresh, fresh, fresh, fresh]);
      expect((await sealedTokens(connectionId!)).status).toBe('active');
    } finally {
      await second.close();
    }
  });

  it('a refresh the provider refuses marks the connection needs_reauthorization: 401 oauth_reauthorization_required, nothing charged; linking again repairs it', async () => {
    const user = await fundedUser();
    const { connectionId } = await linkAccount(t, user.accessToken, 'ident', 'frank');
    const pub = await userOAuthPublisher();
    await em().execute('update oauth_connection set refresh_token_sealed = ? where id = ?', [box().encrypt('a-refresh-token-the-provider-never-issued'), connectionId]);
    await expireToken(connectionId!);
    const before = await balanceOf(user.accessToken);
    const response = await t.api.get(`/publishers/${pub.slug}/echo/refused`, { token: user.accessToken });
    expect([response.status, response.body.error.code]).toEqual([401, 'oauth_reauthorization_required']);
    expect(response.body.error.message).toContain(`/oauth/providers/${identProviderId}/authorize`);
    expect(await balanceOf(user.accessToken)).toBe(before);
    expect((await t.api.get('/oauth/connections', { token: user.accessToken })).body.data[0].status).toBe('needs_reauthorization');
    // Still refused without asking the provider again.
    expect((await t.api.get(`/publishers/${pub.slug}/echo/refused`, { token: user.accessToken })).status).toBe(401);
    const again = await linkAccount(t, user.accessToken, 'ident', 'frank');
    expect(again.connectionId).toBe(connectionId);
    expect((await t.api.get(`/publishers/${pub.slug}/echo/repaired`, { token: user.accessToken })).status).toBe(200);
  });
});

describe('refresh when the provider is down', () => {
  it('a provider that cannot be reached for a due refresh is 503 oauth_provider_unavailable: nothing charged, the connection kept active', async () => {
    const user = await fundedUser();
    const down = await t.api.graphql(
      'mutation($input: OAuthProviderInput!) { createOAuthProvider(input: $input) { id } }',
      { input: { slug: 'down', name: 'Down', authorizeUrl: 'http://127.0.0.1:9/authorize', tokenUrl: 'http://127.0.0.1:9/token', userinfoUrl: 'http://127.0.0.1:9/me', clientId: 'c', clientSecret: 's' } },
      { token: user.accessToken },
    );
    const providerId = down.body.data!.createOAuthProvider.id;
    // Linked earlier, while it was up (set up in the database: nothing listens there now).
    const [{ id }] = await em().execute(
      `insert into oauth_connection (id, user_id, provider_id, account_id, access_token_sealed, refresh_token_sealed, expires_at, scopes, is_default, status, created_at, updated_at)
       values (gen_random_uuid(), ?, ?, 'down-account', ?, ?, now() - interval '1 minute', '{}', true, 'active', now(), now()) returning id`,
      [user.id, providerId, box().encrypt('old-access'), box().encrypt('old-refresh')],
    );
    const pub = await userOAuthPublisher({ oauth_provider_id: providerId });
    const before = await balanceOf(user.accessToken);
    const response = await t.api.get(`/publishers/${pub.slug}/echo/down`, { token: user.accessToken });
    expect([response.status, response.body.error.code]).toEqual([503, 'oauth_provider_unavailable']);
    expect(await balanceOf(user.accessToken)).toBe(before);
    expect((await sealedTokens(id)).status).toBe('active');
  });
});

describe('connections', () => {
  it('deleting a connection revokes its grant at the provider, then forgets it', async () => {
    const user = await signUpVerified(t);
    const { connectionId } = await linkAccount(t, user.accessToken, 'ident', 'grace');
    const token = await accessTokenOf(connectionId!);
    expect(await oidc.userinfo(token)).not.toBeNull();
    const response = await t.api.delete(`/oauth/connections/${connectionId}`, { token: user.accessToken });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ connection_id: connectionId, revoked: true, revoked_at_provider: true });
    expect(await oidc.userinfo(token)).toBeNull();
    expect((await t.api.get('/oauth/connections', { token: user.accessToken })).body.data).toEqual([]);
    expect((await t.api.delete(`/oauth/connections/${connectionId}`, { token: user.accessToken })).status).toBe(404);
  });

  it('exactly one connection per provider is the default; the default is what publishers receive', async () => {
    const user = await fundedUser();
    const personal = await linkAccount(t, user.accessToken, 'ident', 'heidi');
    const work = await linkAccount(t, user.accessToken, 'ident', 'heidi-work');
    const listed = async () => (await t.api.get('/oauth/connections', { token: user.accessToken })).body.data;
    expect(Object.fromEntries((await listed()).map((c: any) => [c.account_id, c.is_default]))).toEqual({ heidi: true, 'heidi-work': false });
    const response = await t.api.request('PUT', `/oauth/connections/${work.connectionId}/default`, undefined, { token: user.accessToken });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ id: work.connectionId, is_default: true, account_id: 'heidi-work' });
    expect(Object.fromEntries((await listed()).map((c: any) => [c.account_id, c.is_default]))).toEqual({ heidi: false, 'heidi-work': true });
    const pub = await userOAuthPublisher();
    await t.api.get(`/publishers/${pub.slug}/echo/default`, { token: user.accessToken });
    expect(lastUpstreamRequest('/echo/default').headers.authorization).toBe(`Bearer ${await accessTokenOf(work.connectionId!)}`);
    // Deleting the default hands the role to the remaining connection.
    await t.api.delete(`/oauth/connections/${work.connectionId}`, { token: user.accessToken });
    expect((await listed()).map((c: any) => [c.id, c.is_default])).toEqual([[personal.connectionId, true]]);
  });

  it('another user’s connection ids are 404, as are ids that are not uuids, through REST and GraphQL', async () => {
    const owner = await signUpVerified(t);
    const { connectionId } = await linkAccount(t, owner.accessToken, 'ident', 'ivan');
    const stranger = await signUpVerified(t);
    for (const id of [connectionId, crypto.randomUUID(), 'not-a-uuid']) {
      const deleted = await t.api.delete(`/oauth/connections/${id}`, { token: stranger.accessToken });
      const defaulted = await t.api.request('PUT', `/oauth/connections/${id}/default`, undefined, { token: stranger.accessToken });
      expect([deleted.status, deleted.body.error.code, defaulted.status, defaulted.body.error.code]).toEqual([404, 'oauth_connection_not_found', 404, 'oauth_connection_not_found']);
    }
    const viaGraphql = await t.api.graphql('mutation($id: ID!) { deleteOAuthConnection(connectionId: $id) { revoked } }', { id: connectionId }, { token: stranger.accessToken });
    expect(viaGraphql.body.errors?.[0].extensions).toMatchObject({ code: 'oauth_connection_not_found', status: 404 });
    expect((await t.api.get('/oauth/connections', { token: stranger.accessToken })).body.data).toEqual([]);
    expect((await t.api.get('/oauth/connections', { token: owner.accessToken })).body.data).toHaveLength(1);
  });
});

describe('state', () => {
  /** An authorization begun by `user`, consented at the provider: the callback it would be sent to. */
  async function consentedCallback(user: SignedInUser, login: string): Promise<URL> {
    const start = await authorize('ident', 'https://app.example.com/linked', user.accessToken);
    const callback = await consentAtProvider(start.headers.get('location')!, login);
    for (const name of ['code', 'state']) seen(callback.searchParams.get(name)!);
    return callback;
  }
  const callbackAt = (url: URL) => t.api.get(`${url.pathname}${url.search}`);

  it('a forged or missing state is 400 and redirects nowhere', async () => {
    const user = await signUpVerified(t);
    const callback = await consentedCallback(user, 'judy');
    const forged = new URL(callback);
    forged.searchParams.set('state', 'x'.repeat(43));
    for (const url of [forged, new URL(`${callback.origin}${callback.pathname}?code=${callback.searchParams.get('code')}`)]) {
      const response = await callbackAt(url);
      expect([response.status, response.body.error.code, response.headers.get('location')]).toEqual([400, 'invalid_state', null]);
    }
    expect((await t.api.get('/oauth/ident/callback?state=abc')).status).toBe(400);
  });

  it('a state is single-use: the replayed callback is 400', async () => {
    const user = await signUpVerified(t);
    const { callback, landing } = await linkAccount(t, user.accessToken, 'ident', 'ken');
    expect(landing.searchParams.get('status')).toBe('success');
    const replay = await callbackAt(callback);
    expect([replay.status, replay.body.error.code, replay.headers.get('location')]).toEqual([400, 'invalid_state', null]);
  });

  it('a state older than 10 minutes is 400', async () => {
    const user = await signUpVerified(t);
    const callback = await consentedCallback(user, 'leo');
    await em().execute(`update oauth_authorization_state set expires_at = now() - interval '1 second' where user_id = ? and used_at is null`, [user.id]);
    const response = await callbackAt(callback);
    expect([response.status, response.body.error.code]).toEqual([400, 'invalid_state']);
    expect((await t.api.get('/oauth/connections', { token: user.accessToken })).body.data).toEqual([]);
  });

  it('the sweep deletes states an hour past their expiry and keeps the others', async () => {
    const user = await signUpVerified(t);
    await consentedCallback(user, 'lena');
    await consentedCallback(user, 'lars');
    await em().execute(
      `update oauth_authorization_state set expires_at = now() - interval '2 hours' where id = (select id from oauth_authorization_state where user_id = ? limit 1)`,
      [user.id],
    );
    await deleteStaleAuthorizationStates(em());
    const left = await em().execute(`select expires_at from oauth_authorization_state where user_id = ?`, [user.id]);
    expect(left).toHaveLength(1);
    expect(new Date(left[0].expires_at).getTime()).toBeGreaterThan(Date.now());
  });

  it('a state made for one provider is refused at another’s callback', async () => {
    const user = await signUpVerified(t);
    const callback = await consentedCallback(user, 'mia');
    const response = await t.api.get(`/oauth/offline/callback${callback.search}`);
    expect([response.status, response.body.error.code]).toEqual([400, 'invalid_state']);
  });

  it('a code claiming another issuer (RFC 9207) is not exchanged: the user is sent back with error=issuer_mismatch', async () => {
    const user = await signUpVerified(t);
    const callback = await consentedCallback(user, 'olga');
    expect(callback.searchParams.get('iss')).toBe(oidc.issuer);
    callback.searchParams.set('iss', 'https://attacker.example');
    const codes = oidc.grants.authorization_code;
    const response = await callbackAt(callback);
    expect(response.headers.get('location')).toBe('https://app.example.com/linked?status=error&error=issuer_mismatch');
    expect(oidc.grants.authorization_code).toBe(codes);
  });

  it('the user declining at the provider is sent back to the bound redirect with status=error', async () => {
    const user = await signUpVerified(t);
    const start = await authorize('ident', 'https://dash.example.com/oauth/done', user.accessToken);
    const state = new URL(start.headers.get('location')!).searchParams.get('state')!;
    const response = await t.api.get(`/oauth/providers/${identProviderId}/callback?error=access_denied&state=${state}`);
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('https://dash.example.com/oauth/done?status=error&error=access_denied');
  });
});

describe('through GraphQL', () => {
  it('starts an authorization, lists, defaults and deletes connections, and callPublisher passes the token, with the same rules', async () => {
    const user = await signUpVerified(t);
    const gql = (query: string, variables?: Record<string, unknown>) => t.api.graphql(query, variables, { token: user.accessToken });
    const started = await gql('mutation($input: StartOAuthAuthorizationInput!) { startOAuthAuthorization(input: $input) { authorizationUrl expiresAt } }', {
      input: { providerId: identProviderId, redirectUri: 'https://app.example.com/from-graphql' },
    });
    const { authorizationUrl, expiresAt } = started.body.data!.startOAuthAuthorization;
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(9 * 60_000);
    const callback = await consentAtProvider(authorizationUrl, 'nina');
    const finished = await t.api.get(`${callback.pathname}${callback.search}`);
    expect(finished.headers.get('location')).toMatch(/^https:\/\/app\.example\.com\/from-graphql\?status=success&connection_id=/);
    const listed = await gql('{ oauthConnections { id accountId isDefault status providerSlug } oauthProviders { slug connected } }');
    const [connection] = listed.body.data!.oauthConnections;
    expect(connection).toMatchObject({ accountId: 'nina', isDefault: true, status: 'active', providerSlug: 'ident' });
    expect(listed.body.data!.oauthProviders.find((p: any) => p.slug === 'ident').connected).toBe(true);
    const defaulted = await gql('mutation($id: ID!) { setDefaultOAuthConnection(connectionId: $id) { id isDefault } }', { id: connection.id });
    expect(defaulted.body.data!.setDefaultOAuthConnection).toEqual({ id: connection.id, isDefault: true });
    const refused = await gql('mutation($input: StartOAuthAuthorizationInput!) { startOAuthAuthorization(input: $input) { authorizationUrl } }', {
      input: { provider: 'ident', redirectUri: 'https://app.example.com.evil.net/' },
    });
    expect(refused.body.errors?.[0].extensions).toMatchObject({ code: 'invalid_redirect_uri', status: 400 });
    await fundWallet(t, user.id, '1.00');
    const pub = await userOAuthPublisher();
    const called = await gql('mutation($input: CallPublisherInput!) { callPublisher(input: $input) { status chargeId } }', { input: { slug: pub.slug, path: '/echo/graphql' } });
    expect(called.body.data!.callPublisher).toMatchObject({ status: 200, chargeId: expect.any(String) });
    expect(lastUpstreamRequest('/echo/graphql').headers.authorization).toBe(`Bearer ${await accessTokenOf(connection.id)}`);
    const deleted = await gql('mutation($id: ID!) { deleteOAuthConnection(connectionId: $id) { connectionId revoked revokedAtProvider } }', { id: connection.id });
    expect(deleted.body.data!.deleteOAuthConnection).toEqual({ connectionId: connection.id, revoked: true, revokedAtProvider: true });
    const unconnected = await gql('mutation($input: CallPublisherInput!) { callPublisher(input: $input) { status } }', { input: { slug: pub.slug, path: '/echo/graphql' } });
    expect(unconnected.body.errors?.[0].extensions).toMatchObject({ code: 'oauth_connection_required', status: 400 });
  });
});

describe('organization providers', () => {
  const providerFields = 'id slug name scopes organizationId isActive callbackUrl clientId';
  const create = (token: string, input: Record<string, unknown>) =>
    t.api.graphql(`mutation($input: OAuthProviderInput!) { createOAuthProvider(input: $input) { ${providerFields} } }`, { input }, { token });
  const orgProvider = (slug: string) => ({ slug, name: 'Team Ident', issuer: oidc.issuer, clientId: oidc.clientId, clientSecret: 'team-secret-value', scopes: ['openid'] });

  it('owners create, change and disable their organization’s providers; the secret is sealed and never returned', async () => {
    const owner = await signUpVerified(t);
    const created = await create(owner.accessToken, orgProvider('team-ident'));
    const provider = created.body.data!.createOAuthProvider;
    expect(provider).toMatchObject({ slug: 'team-ident', organizationId: owner.organizationId, isActive: true, callbackUrl: 'http://app.test/oauth/team-ident/callback' });
    expect(JSON.stringify(created.body)).not.toContain('team-secret-value');
    const [row] = await em().execute('select client_secret_sealed from oauth_provider where id = ?', [provider.id]);
    expect(box().decrypt(row.client_secret_sealed)).toBe('team-secret-value');
    const listed = (await t.api.get('/oauth/providers', { token: owner.accessToken })).body.data;
    expect(listed.map((p: any) => p.slug)).toEqual(expect.arrayContaining(['ident', 'team-ident']));
    expect((await authorize('team-ident', 'https://app.example.com/x', owner.accessToken)).status).toBe(302);

    const changed = await t.api.graphql(
      `mutation($id: ID!, $input: OAuthProviderUpdateInput!) { updateOAuthProvider(providerId: $id, input: $input) { ${providerFields} } }`,
      { id: provider.id, input: { name: 'Team Ident (renamed)', scopes: ['openid', 'offline_access'] } },
      { token: owner.accessToken },
    );
    expect(changed.body.data!.updateOAuthProvider).toMatchObject({ name: 'Team Ident (renamed)', scopes: ['openid', 'offline_access'] });
    const [unchanged] = await em().execute('select client_secret_sealed from oauth_provider where id = ?', [provider.id]);
    expect(box().decrypt(unchanged.client_secret_sealed)).toBe('team-secret-value');

    const disabled = await t.api.graphql('mutation($id: ID!) { disableOAuthProvider(providerId: $id) { isActive } }', { id: provider.id }, { token: owner.accessToken });
    expect(disabled.body.data!.disableOAuthProvider.isActive).toBe(false);
    expect((await t.api.get('/oauth/providers', { token: owner.accessToken })).body.data.map((p: any) => p.slug)).not.toContain('team-ident');
    expect((await authorize('team-ident', 'https://app.example.com/x', owner.accessToken)).status).toBe(404);
  });

  it('another organization’s provider is invisible (404) to outsiders, who cannot change it either', async () => {
    const owner = await signUpVerified(t);
    const provider = (await create(owner.accessToken, orgProvider('private-ident'))).body.data!.createOAuthProvider;
    const outsider = await signUpVerified(t);
    expect((await t.api.get('/oauth/providers', { token: outsider.accessToken })).body.data.map((p: any) => p.slug)).not.toContain('private-ident');
    expect((await t.api.get(`/oauth/providers/${provider.id}/authorize?redirect_uri=https://app.example.com/`, { token: outsider.accessToken })).status).toBe(404);
    expect((await authorize('private-ident', 'https://app.example.com/x', outsider.accessToken)).status).toBe(404);
    const changed = await t.api.graphql('mutation($id: ID!) { disableOAuthProvider(providerId: $id) { isActive } }', { id: provider.id }, { token: outsider.accessToken });
    expect(changed.body.errors?.[0].extensions).toMatchObject({ code: 'oauth_provider_not_found', status: 404 });
    const intoTheirs = await create(outsider.accessToken, { ...orgProvider('sneaky'), organizationId: owner.organizationId });
    expect(intoTheirs.body.errors?.[0].extensions).toMatchObject({ status: 404 });
    const global = await t.api.graphql('mutation($id: ID!) { disableOAuthProvider(providerId: $id) { isActive } }', { id: identProviderId }, { token: owner.accessToken });
    expect(global.body.errors?.[0].extensions).toMatchObject({ code: 'oauth_provider_not_found', status: 404 });
  });

  it('members of the organization see and connect to its providers; only owners and admins manage them (403)', async () => {
    const owner = await signUpVerified(t);
    const provider = (await create(owner.accessToken, orgProvider('shared-ident'))).body.data!.createOAuthProvider;
    const member = await signUpVerified(t);
    const invited = await t.api.graphql(
      'mutation($input: InviteMemberInput!) { inviteToOrganization(input: $input) { id } }',
      { input: { organizationId: owner.organizationId, email: member.email } },
      { token: owner.accessToken },
    );
    expect(invited.body.errors).toBeUndefined();
    const token = await t.mailbox.waitForToken(member.email, 'accept-invite');
    expect((await t.api.post('/auth/accept-invite', { token }, { token: member.accessToken })).status).toBe(200);
    // The member's current organization is still their own: the provider comes with the membership.
    const listed = (await t.api.get('/oauth/providers', { token: member.accessToken })).body.data;
    expect(listed.find((p: any) => p.slug === 'shared-ident')).toMatchObject({ id: provider.id, organization_id: owner.organizationId });
    expect((await authorize('shared-ident', 'https://app.example.com/x', member.accessToken)).status).toBe(302);
    const disabled = await t.api.graphql('mutation($id: ID!) { disableOAuthProvider(providerId: $id) { isActive } }', { id: provider.id }, { token: member.accessToken });
    expect(disabled.body.errors?.[0].extensions).toMatchObject({ code: 'organization_admin_required', status: 403 });
  });

  it('refuses settings that could not work (400 invalid_oauth_provider) and a slug the organization uses already (409)', async () => {
    const owner = await signUpVerified(t);
    const noEndpoints = await create(owner.accessToken, { ...orgProvider('broken'), issuer: null });
    expect(noEndpoints.body.errors?.[0].extensions).toMatchObject({ code: 'invalid_oauth_provider', status: 400 });
    const badUrl = await create(owner.accessToken, { ...orgProvider('broken'), issuer: 'file:///etc/passwd' });
    expect(badUrl.body.errors?.[0].extensions).toMatchObject({ code: 'invalid_oauth_provider', status: 400 });
    expect(JSON.stringify(badUrl.body)).not.toContain('team-secret-value');
    expect((await create(owner.accessToken, orgProvider('twice'))).body.data).toBeTruthy();
    expect((await create(owner.accessToken, orgProvider('twice'))).body.errors?.[0].extensions).toMatchObject({ code: 'oauth_provider_slug_taken', status: 409 });
  });
});

describe('logs', () => {
  it('never hold a token, a client secret, an authorization code or a state, at any level', () => {
    secretsSeen.add(oidc.clientSecret);
    expect(logged.length).toBeGreaterThan(0);
    const text = logged.join('');
    expect([...secretsSeen].filter((secret) => text.includes(secret))).toEqual([]);
  });
});
