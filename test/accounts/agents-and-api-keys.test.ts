import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { registerAgent, signUpVerified, uniqueEmail } from '../support/accounts.js';

let t: TestPlatform;
beforeAll(async () => {
  t = await startTestPlatform();
});
afterAll(() => t.close());

describe('agent self-registration', () => {
  it.each([[{}], [{ name: 'scout' }]])('registers with %j: 201, a key shown once, a personal organization', async (body) => {
    const response = await t.api.post('/auth/agent', body);
    expect(response.status).toBe(201);
    const agent = response.body.data.agent;
    expect(agent.api_key).toMatch(/^ak_[A-Za-z0-9_-]{43}$/);
    expect(agent.id).toMatch(/^[0-9a-f-]{36}$/);
    const me = await t.api.get('/auth/me', { token: agent.api_key });
    expect(me.body.data).toMatchObject({ id: agent.id, kind: 'agent', default_organization: { personal: true, role: 'owner' } });
  });

  it('with an e-mail, mails a verification link at once; following it verifies the agent', async () => {
    const email = uniqueEmail('agent');
    const agent = await registerAgent(t, { name: 'mailer', email });
    expect(agent.email).toBe(email);
    const token = await t.mailbox.waitForToken(email, 'verify-email');
    expect((await t.api.post('/auth/verify-email', { token })).status).toBe(200);
    expect((await t.api.get('/auth/me', { token: agent.api_key })).body.data.email_verified).toBe(true);
  });

  it('refuses an invalid or taken e-mail', async () => {
    expect((await t.api.post('/auth/agent', { email: 'nope' })).body.error.code).toBe('invalid_email');
    const user = await signUpVerified(t);
    const taken = await t.api.post('/auth/agent', { email: user.email });
    expect(taken.status).toBe(409);
  });

  it('the key is stored hashed: the database never holds it', async () => {
    const agent = await registerAgent(t);
    const rows = await t.platform.services.orm.em.getConnection().execute('select key_hash, prefix from account_api_key where user_id = ?', [agent.id]);
    expect(rows[0].key_hash).not.toContain(agent.api_key);
    expect(agent.api_key.startsWith(rows[0].prefix)).toBe(true);
  });
});

describe('PATCH /auth/agent', () => {
  it('a changed e-mail becomes unverified and a link is mailed to it', async () => {
    const first = uniqueEmail('before');
    const agent = await registerAgent(t, { email: first });
    await t.api.post('/auth/verify-email', { token: await t.mailbox.waitForToken(first, 'verify-email') });
    const second = uniqueEmail('after');
    const patched = await t.api.patch('/auth/agent', { email: second }, { token: agent.api_key });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ email: second, email_verified: false });
    await t.mailbox.waitForLink(second, 'verify-email');
    // The old address's link no longer proves anything about the account.
    expect((await t.api.get('/auth/me', { token: agent.api_key })).body.data.email_verified).toBe(false);
  });

  it('a link mailed to the address before the change answers 400 email_changed (an invalid token, as the spec says)', async () => {
    const first = uniqueEmail('old');
    const agent = await registerAgent(t, { email: first });
    const oldLink = await t.mailbox.waitForToken(first, 'verify-email');
    expect((await t.api.patch('/auth/agent', { email: uniqueEmail('new') }, { token: agent.api_key })).status).toBe(200);
    const stale = await t.api.post('/auth/verify-email', { token: oldLink });
    expect(stale.status).toBe(400);
    expect(stale.body.error.code).toBe('email_changed');
  });

  it('refuses an invalid e-mail with 400 and an anonymous caller with 401', async () => {
    const agent = await registerAgent(t);
    expect((await t.api.patch('/auth/agent', { email: 'x' }, { token: agent.api_key })).status).toBe(400);
    expect((await t.api.patch('/auth/agent', { email: uniqueEmail() })).status).toBe(401);
  });
});

describe('API keys', () => {
  it('an API key can never manage API keys (403)', async () => {
    const agent = await registerAgent(t);
    for (const response of [
      await t.api.get('/organizations/default/api-keys', { token: agent.api_key }),
      await t.api.post('/organizations/default/api-keys', { name: 'more' }, { token: agent.api_key }),
    ]) {
      expect(response.status).toBe(403);
      expect(response.body.error.code).toBe('access_token_required');
    }
  });

  it('the organization in the path counts: a key is not found under another one, and "default" works for invitations too', async () => {
    const user = await signUpVerified(t);
    const other = await signUpVerified(t);
    const created = await t.api.post('/organizations/default/api-keys', { name: 'pathed' }, { token: user.accessToken });
    const keyId = created.body.data.api_key.id;
    for (const organization of [other.organizationId, '00000000-0000-4000-8000-000000000000']) {
      const elsewhere = await t.api.delete(`/organizations/${organization}/api-keys/${keyId}`, { token: user.accessToken });
      expect(elsewhere.status).toBe(404);
    }
    expect((await t.api.get('/auth/me', { token: created.body.data.key })).status).toBe(200);
    expect((await t.api.delete(`/organizations/${user.organizationId}/api-keys/${keyId}`, { token: user.accessToken })).status).toBe(200);
    const invited = await t.api.post('/organizations/default/invitations', { email: uniqueEmail('invited') }, { token: user.accessToken });
    expect(invited.status).toBe(201);
  });

  it('paging beyond what a 32-bit integer holds is invalid_limit / invalid_offset, as any other out-of-range value', async () => {
    const user = await signUpVerified(t);
    for (const [query, code] of [
      ['limit=1000', 'invalid_limit'],
      ['limit=99999999999', 'invalid_limit'],
      ['offset=99999999999', 'invalid_offset'],
      ['offset=-1', 'invalid_offset'],
    ]) {
      const response = await t.api.get(`/notifications?${query}`, { token: user.accessToken });
      expect([response.status, response.body.error.code]).toEqual([400, code]);
    }
    expect((await t.api.get('/publishers?limit=99999999999')).body.error.code).toBe('invalid_limit');
  });

  it('a signed-in user creates, lists (never the secret) and revokes keys; a revoked key stops working', async () => {
    const user = await signUpVerified(t);
    const created = await t.api.post('/organizations/default/api-keys', { name: 'ci' }, { token: user.accessToken });
    expect(created.status).toBe(201);
    const key = created.body.data.key;
    expect((await t.api.get('/auth/me', { token: key })).body.data.id).toBe(user.id);
    const list = await t.api.get('/organizations/default/api-keys', { token: user.accessToken });
    expect(list.body.data).toHaveLength(1);
    expect(JSON.stringify(list.body.data)).not.toContain(key);
    const revoked = await t.api.delete(`/organizations/default/api-keys/${created.body.data.api_key.id}`, { token: user.accessToken });
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.revoked_at).not.toBeNull();
    const after = await t.api.get('/auth/me', { token: key });
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('invalid_api_key');
  });

  it("another user's organization and key are not found", async () => {
    const owner = await signUpVerified(t);
    const stranger = await signUpVerified(t);
    const created = await t.api.post('/organizations/default/api-keys', { name: 'mine' }, { token: owner.accessToken });
    expect((await t.api.get(`/organizations/${owner.organizationId}/api-keys`, { token: stranger.accessToken })).status).toBe(404);
    expect((await t.api.delete(`/organizations/default/api-keys/${created.body.data.api_key.id}`, { token: stranger.accessToken })).status).toBe(404);
    expect((await t.api.delete('/organizations/default/api-keys/not-a-uuid', { token: stranger.accessToken })).status).toBe(404);
  });
});
