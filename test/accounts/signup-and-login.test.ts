import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { PASSWORD, signUpVerified, uniqueEmail } from '../support/accounts.js';
import { withInsertsRefused } from '../support/database-faults.js';
import type { EntityManager } from '@mikro-orm/postgresql';

let t: TestPlatform;
beforeAll(async () => {
  t = await startTestPlatform();
});
afterAll(() => t.close());

describe('sign-up', () => {
  it('creates an account with a personal organization and mails a verification link under PUBLIC_URL', async () => {
    const email = uniqueEmail();
    const response = await t.api.post('/auth/signup', { email: email.toUpperCase(), password: PASSWORD, name: 'Ada' });
    expect(response.status).toBe(201);
    expect(response.body.data.user).toMatchObject({ email, name: 'Ada', kind: 'user', email_verified: false });
    expect(response.body.data.user.default_organization).toMatchObject({ personal: true });
    const link = await t.mailbox.waitForLink(email, 'verify-email');
    expect(link).toMatch(/^http:\/\/app\.test\/verify-email\?token=[A-Za-z0-9_-]{43}$/);
  });

  it('refuses a registered e-mail with 409, whatever its case', async () => {
    const email = uniqueEmail();
    expect((await t.api.post('/auth/signup', { email, password: PASSWORD })).status).toBe(201);
    const again = await t.api.post('/auth/signup', { email: email.toUpperCase(), password: PASSWORD });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('email_taken');
  });

  it('lets exactly one of two racing sign-ups for one address through', async () => {
    const email = uniqueEmail('race');
    const results = await Promise.all([1, 2, 3].map(() => t.api.post('/auth/signup', { email, password: PASSWORD })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
  });

  it.each([
    ['too short', 'short1'],
    ['a common password', 'password123'],
    ['one repeated character', 'aaaaaaaaaaaa'],
  ])('refuses a weak password (%s) with 400 weak_password', async (_label, password) => {
    const response = await t.api.post('/auth/signup', { email: uniqueEmail(), password });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('weak_password');
  });

  it('refuses an invalid e-mail and a missing field with 400', async () => {
    const invalid = await t.api.post('/auth/signup', { email: 'not-an-email', password: PASSWORD });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.code).toBe('invalid_email');
    const missing = await t.api.post('/auth/signup', { email: uniqueEmail() });
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('invalid_input');
  });
});

describe('login and verification', () => {
  it('refuses login with 403 until the e-mail is verified; verifying logs in', async () => {
    const email = uniqueEmail();
    await t.api.post('/auth/signup', { email, password: PASSWORD });
    const early = await t.api.post('/auth/login', { email, password: PASSWORD });
    expect(early.status).toBe(403);
    expect(early.body.error.code).toBe('email_verification_required');

    const token = await t.mailbox.waitForToken(email, 'verify-email');
    const verified = await t.api.post('/auth/verify-email', { token });
    expect(verified.status).toBe(200);
    expect(verified.body.data).toMatchObject({ token_type: 'Bearer', expires_in: 900, user: { email, email_verified: true } });

    const login = await t.api.post('/auth/login', { email, password: PASSWORD });
    expect(login.status).toBe(200);
    const me = await t.api.get('/auth/me', { token: login.body.data.access_token });
    expect(me.body.data).toMatchObject({ email, email_verified: true, default_organization: { role: 'owner' } });
  });

  it('a verification the database rolls back for a deadlock (its reactions lock shared accounts) is run again: 200, not 500', async () => {
    const email = uniqueEmail();
    await t.api.post('/auth/signup', { email, password: PASSWORD });
    const token = await t.mailbox.waitForToken(email, 'verify-email');
    const em = t.platform.services.orm.em.fork() as EntityManager;
    const verified = await withInsertsRefused(em, { table: 'account_session', when: 'true', times: 1, errcode: '40P01' }, () =>
      t.api.post('/auth/verify-email', { token }),
    );
    expect([verified.status, verified.body.data?.user?.email_verified]).toEqual([200, true]);
  });

  it('spends a verification token once', async () => {
    const email = uniqueEmail();
    await t.api.post('/auth/signup', { email, password: PASSWORD });
    const token = await t.mailbox.waitForToken(email, 'verify-email');
    expect((await t.api.post('/auth/verify-email', { token })).status).toBe(200);
    const again = await t.api.post('/auth/verify-email', { token });
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('token_already_used');
  });

  it('answers 400 for a malformed, unknown or expired verification token', async () => {
    expect((await t.api.post('/auth/verify-email', { token: 'nope' })).body.error.code).toBe('invalid_token');
    const unknown = await t.api.post('/auth/verify-email', { token: 'A'.repeat(43) });
    expect(unknown.status).toBe(400);

    const email = uniqueEmail();
    await t.api.post('/auth/signup', { email, password: PASSWORD });
    const token = await t.mailbox.waitForToken(email, 'verify-email');
    await t.platform.services.orm.em
      .getConnection()
      .execute(`update account_email_token set expires_at = now() - interval '1 minute' where email = ?`, [email]);
    const expired = await t.api.post('/auth/verify-email', { token });
    expect(expired.status).toBe(400);
    expect(expired.body.error.code).toBe('token_expired');
  });

  it('answers 401 invalid_credentials alike for a wrong password and an unknown account', async () => {
    const user = await signUpVerified(t);
    const wrong = await t.api.post('/auth/login', { email: user.email, password: 'not the password at all' });
    const unknown = await t.api.post('/auth/login', { email: uniqueEmail('ghost'), password: PASSWORD });
    expect([wrong.status, unknown.status]).toEqual([401, 401]);
    expect(wrong.body).toEqual(unknown.body);
  });

  it('rate limits login per account with 429 and Retry-After', async () => {
    const user = await signUpVerified(t);
    const attempts = [];
    for (let i = 0; i < 11; i++) attempts.push(await t.api.post('/auth/login', { email: user.email, password: 'wrong password here' }));
    expect(attempts.slice(0, 10).every((a) => a.status === 401)).toBe(true);
    expect(attempts[10]!.status).toBe(429);
    expect(attempts[10]!.body.error.code).toBe('rate_limited');
    expect(Number(attempts[10]!.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('resend-verification and forgot-password do not reveal accounts', () => {
  it('gives the same answer whether or not the account exists, and mails only a real one', async () => {
    const email = uniqueEmail();
    await t.api.post('/auth/signup', { email, password: PASSWORD });
    const ghost = uniqueEmail('ghost');
    for (const path of ['/auth/resend-verification', '/auth/forgot-password']) {
      const real = await t.api.post(path, { email });
      const fake = await t.api.post(path, { email: ghost });
      expect(real.status).toBe(200);
      expect(real.body).toEqual(fake.body);
    }
    await t.mailbox.waitForLink(email, 'verify-email', 2);
    await t.mailbox.waitForLink(email, 'reset-password');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(t.mailbox.to(ghost)).toHaveLength(0);
  });

  it('answers 400 for an invalid e-mail', async () => {
    const response = await t.api.post('/auth/forgot-password', { email: 'nope' });
    expect(response.status).toBe(400);
  });
});
