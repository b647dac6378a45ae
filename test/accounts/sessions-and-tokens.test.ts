import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SignJWT } from 'jose';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { PASSWORD, registerAgent, signUpVerified } from '../support/accounts.js';

let t: TestPlatform;
beforeAll(async () => {
  t = await startTestPlatform();
});
afterAll(() => t.close());

/** The tokens of the first `count` mails to `address` linking to `page`, in the order they were sent. */
async function mailedTokens(address: string, page: string, count: number): Promise<string[]> {
  await t.mailbox.waitForLink(address, page, count);
  const links = t.mailbox.to(address).flatMap((mail) => mail.links).filter((link) => link.includes(`/${page}?`));
  return links.slice(0, count).map((link) => new URL(link).searchParams.get('token')!);
}
const sql = (text: string, params: unknown[] = []) => t.platform.services.orm.em.getConnection().execute(text, params);

describe('refresh tokens', () => {
  it('rotate: the new pair works and the old refresh token is spent', async () => {
    const user = await signUpVerified(t);
    const refreshed = await t.api.post('/auth/refresh', { refresh_token: user.refreshToken });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.data.refresh_token).not.toBe(user.refreshToken);
    expect((await t.api.get('/auth/me', { token: refreshed.body.data.access_token })).status).toBe(200);
  });

  it('a reused refresh token answers 401 and revokes the whole family', async () => {
    const user = await signUpVerified(t);
    const first = await t.api.post('/auth/refresh', { refresh_token: user.refreshToken });
    const reuse = await t.api.post('/auth/refresh', { refresh_token: user.refreshToken });
    expect(reuse.status).toBe(401);
    expect(reuse.body.error.code).toBe('refresh_token_reused');
    // The thief's or the owner's newer token is revoked with the family, and so are its access tokens.
    const newer = await t.api.post('/auth/refresh', { refresh_token: first.body.data.refresh_token });
    expect(newer.status).toBe(401);
    expect((await t.api.get('/auth/me', { token: first.body.data.access_token })).status).toBe(401);
  });

  it('two refreshes racing with one token: one wins, the family is then revoked', async () => {
    const user = await signUpVerified(t);
    const results = await Promise.all([1, 2].map(() => t.api.post('/auth/refresh', { refresh_token: user.refreshToken })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
  });

  it('answers 401 for a missing, unknown or expired refresh token', async () => {
    expect((await t.api.post('/auth/refresh', {})).status).toBe(401);
    expect((await t.api.post('/auth/refresh', { refresh_token: 'nope' })).status).toBe(401);
    const user = await signUpVerified(t);
    await sql(`update account_refresh_token set expires_at = now() - interval '1 second' where used_at is null and session_id in (select id from account_session where user_id = ?)`, [user.id]);
    const expired = await t.api.post('/auth/refresh', { refresh_token: user.refreshToken });
    expect(expired.status).toBe(401);
    expect(expired.body.error.code).toBe('refresh_token_expired');
  });
});

describe('access tokens', () => {
  it('an expired or forged access token answers 401', async () => {
    const user = await signUpVerified(t);
    const secret = new TextEncoder().encode(t.platform.services.config.secrets.JWT_SECRET);
    const [{ id: sessionId }] = await sql('select id from account_session where user_id = ? limit 1', [user.id]);
    const expired = await new SignJWT({ sid: sessionId, typ: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.id)
      .setIssuer('agent-commerce-platform')
      .setAudience('platform-api')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 3600)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(secret);
    const response = await t.api.get('/auth/me', { token: expired });
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe('token_expired');
    const forged = user.accessToken.slice(0, -4) + (user.accessToken.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    expect((await t.api.get('/auth/me', { token: forged })).body.error.code).toBe('invalid_token');
    expect((await t.api.get('/auth/me', { headers: { authorization: 'Basic abc' } })).body.error.code).toBe(
      'invalid_authorization_header',
    );
    expect((await t.api.get('/auth/me')).status).toBe(401);
  });
});

describe('logout and password change', () => {
  it('logout revokes every session of the user, on every device', async () => {
    const user = await signUpVerified(t);
    const second = await t.api.post('/auth/login', { email: user.email, password: PASSWORD });
    const logout = await t.api.post('/auth/logout', undefined, { token: user.accessToken });
    expect(logout.status).toBe(200);
    expect(logout.body.data).toEqual({ logged_out: true, sessions_revoked: 2 });
    expect((await t.api.get('/auth/me', { token: second.body.data.access_token })).status).toBe(401);
    expect((await t.api.post('/auth/refresh', { refresh_token: second.body.data.refresh_token })).status).toBe(401);
    expect((await t.api.post('/auth/logout')).status).toBe(401);
  });

  it('change-password needs the current password, checks strength, and revokes the refresh sessions', async () => {
    const user = await signUpVerified(t);
    const wrong = await t.api.post('/auth/change-password', { current_password: 'not it at all', new_password: 'another fine passphrase' }, { token: user.accessToken });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.code).toBe('invalid_current_password');
    const weak = await t.api.post('/auth/change-password', { current_password: PASSWORD, new_password: 'short' }, { token: user.accessToken });
    expect(weak.body.error.code).toBe('weak_password');
    const changed = await t.api.post('/auth/change-password', { current_password: PASSWORD, new_password: 'another fine passphrase' }, { token: user.accessToken });
    expect(changed.status).toBe(200);
    expect((await t.api.post('/auth/refresh', { refresh_token: user.refreshToken })).status).toBe(401);
    expect((await t.api.post('/auth/login', { email: user.email, password: PASSWORD })).status).toBe(401);
    expect((await t.api.post('/auth/login', { email: user.email, password: 'another fine passphrase' })).status).toBe(200);
  });

  it('change-password spends the login budget: a stolen access token buys 10 guesses a minute at the current password, then 429', async () => {
    const user = await signUpVerified(t);
    const attempt = (current: string) => t.api.post('/auth/change-password', { current_password: current, new_password: 'another fine passphrase' }, { token: user.accessToken });
    const guesses = [];
    for (let i = 0; i < 10; i++) guesses.push((await attempt(`guess number ${i}`)).status);
    expect(guesses).toEqual(Array(10).fill(400));
    const limited = await attempt(PASSWORD);
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('rate_limited');
  });

  it('change-password answers 403 for an API key and for an account without a password', async () => {
    const agent = await registerAgent(t, { name: 'no-password' });
    const withKey = await t.api.post('/auth/change-password', { current_password: 'x', new_password: 'another fine passphrase' }, { token: agent.api_key });
    expect(withKey.status).toBe(403);
    // An agent signed in through its verification link has an access token but no password.
    const email = `agent-${Date.now()}@example.test`;
    const withEmail = await registerAgent(t, { name: 'mail-agent', email });
    void withEmail;
    const token = await t.mailbox.waitForToken(email, 'verify-email');
    const session = await t.api.post('/auth/verify-email', { token });
    const noPassword = await t.api.post('/auth/change-password', { current_password: 'x', new_password: 'another fine passphrase' }, { token: session.body.data.access_token });
    expect(noPassword.status).toBe(403);
    expect(noPassword.body.error.code).toBe('password_login_not_enabled');
  });
});

describe('password reset', () => {
  it('mails a reset link; the reset sets the password, ends sessions and is single use', async () => {
    const user = await signUpVerified(t);
    await t.api.post('/auth/forgot-password', { email: user.email });
    const token = await t.mailbox.waitForToken(user.email, 'reset-password');
    const reset = await t.api.post('/auth/reset-password', { token, new_password: 'a brand new passphrase' });
    expect(reset.status).toBe(200);
    expect((await t.api.get('/auth/me', { token: user.accessToken })).status).toBe(401);
    expect((await t.api.post('/auth/login', { email: user.email, password: 'a brand new passphrase' })).status).toBe(200);
    const again = await t.api.post('/auth/reset-password', { token, new_password: 'yet another passphrase' });
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('token_already_used');
  });

  it('one reset spends the other reset links mailed before it', async () => {
    const user = await signUpVerified(t);
    await t.api.post('/auth/forgot-password', { email: user.email });
    await t.api.post('/auth/forgot-password', { email: user.email });
    const [first, second] = await mailedTokens(user.email, 'reset-password', 2);
    expect((await t.api.post('/auth/reset-password', { token: first, new_password: 'a brand new passphrase' })).status).toBe(200);
    const stale = await t.api.post('/auth/reset-password', { token: second, new_password: 'the attacker picks this' });
    expect(stale.status).toBe(400);
    expect(stale.body.error.code).toBe('token_already_used');
    expect((await t.api.post('/auth/login', { email: user.email, password: 'a brand new passphrase' })).status).toBe(200);
  });

  it('a password change spends the links mailed before it: none signs in or resets afterwards', async () => {
    const email = `agent-links-${Date.now()}@example.test`;
    await registerAgent(t, { name: 'two-links', email });
    await t.api.post('/auth/resend-verification', { email });
    const [first, second] = await mailedTokens(email, 'verify-email', 2);
    const session = (await t.api.post('/auth/verify-email', { token: first })).body.data;
    // Verifying spent the other verification link: it no longer signs anyone in.
    expect((await t.api.post('/auth/verify-email', { token: second })).body.error.code).toBe('token_already_used');
    await t.api.post('/auth/forgot-password', { email });
    const reset = await t.mailbox.waitForToken(email, 'reset-password');
    expect((await t.api.post('/auth/reset-password', { token: reset, new_password: 'the first passphrase' })).status).toBe(200);
    await t.api.post('/auth/forgot-password', { email });
    const laterReset = await t.mailbox.waitForToken(email, 'reset-password', 2);
    const login = (await t.api.post('/auth/login', { email, password: 'the first passphrase' })).body.data;
    const changed = await t.api.post('/auth/change-password', { current_password: 'the first passphrase', new_password: 'the second passphrase' }, { token: login.access_token });
    expect(changed.status).toBe(200);
    expect((await t.api.post('/auth/reset-password', { token: laterReset, new_password: 'the attacker picks this' })).body.error.code).toBe('token_already_used');
    expect((await t.api.get('/auth/me', { token: session.access_token })).status).toBe(401);
  });

  it('an account someone registered with another person’s address: the owner’s reset takes it over, and the API keys issued before go', async () => {
    const email = `victim-${Date.now()}@example.test`;
    const squatter = await registerAgent(t, { name: 'squatter', email });
    expect((await t.api.get('/auth/me', { token: squatter.api_key })).status).toBe(200);
    // The owner cannot sign up (the address is taken), so resets the password of the account holding it.
    expect((await t.api.post('/auth/signup', { email, password: PASSWORD })).status).toBe(409);
    await t.api.post('/auth/forgot-password', { email });
    const token = await t.mailbox.waitForToken(email, 'reset-password');
    expect((await t.api.post('/auth/reset-password', { token, new_password: 'now this is mine' })).status).toBe(200);
    const squatted = await t.api.get('/auth/me', { token: squatter.api_key });
    expect(squatted.status).toBe(401);
    const owner = (await t.api.post('/auth/login', { email, password: 'now this is mine' })).body.data;
    expect((await t.api.get('/auth/me', { token: owner.access_token })).body.data).toMatchObject({ email, email_verified: true });
    // A key the owner makes afterwards works, and a later reset of a proven address leaves keys alone.
    const key = await t.api.post('/organizations/default/api-keys', { name: 'mine' }, { token: owner.access_token });
    expect(key.status).toBe(201);
    await t.api.post('/auth/forgot-password', { email });
    const again = await t.mailbox.waitForToken(email, 'reset-password', 2);
    expect((await t.api.post('/auth/reset-password', { token: again, new_password: 'still mine, again' })).status).toBe(200);
    expect((await t.api.get('/auth/me', { token: key.body.data.key })).status).toBe(200);
  });

  it('tells the owner of an address an agent registered with that the link confirms the agent’s account', async () => {
    const email = `agent-mail-${Date.now()}@example.test`;
    await registerAgent(t, { name: 'mail-wording', email });
    await t.mailbox.waitForLink(email, 'verify-email');
    expect(t.mailbox.to(email)[0]!.text).toMatch(/An AI agent registered an account with this address/);
  });

  it('answers 400 for a malformed or expired token and 404 for an unknown one', async () => {
    expect((await t.api.post('/auth/reset-password', { token: 'bad', new_password: 'a brand new passphrase' })).status).toBe(400);
    const unknown = await t.api.post('/auth/reset-password', { token: 'B'.repeat(43), new_password: 'a brand new passphrase' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('token_not_found');
    const user = await signUpVerified(t);
    await t.api.post('/auth/forgot-password', { email: user.email });
    const token = await t.mailbox.waitForToken(user.email, 'reset-password');
    await sql(`update account_email_token set expires_at = now() - interval '1 second' where purpose = 'reset_password' and user_id = ?`, [user.id]);
    const expired = await t.api.post('/auth/reset-password', { token, new_password: 'a brand new passphrase' });
    expect(expired.status).toBe(400);
    expect(expired.body.error.code).toBe('token_expired');
  });
});
