import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { registerAgent, uniqueEmail } from '../support/accounts.js';
import { ApiKeyIdentities } from '../../subgraphs/accounts/services/api-key-identities.js';
import type { Identity } from '../../shared/context.js';

let t: TestPlatform;
beforeAll(async () => {
  // Long enough that only an explicit forget can explain a change seen by the next request.
  t = await startTestPlatform({ API_KEY_CACHE_SECONDS: '60' });
});
afterAll(() => t.close());

/** The process remembers resolved keys; these changes must still apply to the very next request. */
describe('remembered API keys', () => {
  it('verifying the e-mail applies at once to a key used just before', async () => {
    const email = uniqueEmail('remembered');
    const agent = await registerAgent(t, { email });
    const before = await t.api.post('/wallet/daily/claim', {}, { token: agent.api_key });
    expect([before.status, before.body.error.code]).toEqual([403, 'email_verification_required']);
    expect((await t.api.post('/auth/verify-email', { token: await t.mailbox.waitForToken(email, 'verify-email') })).status).toBe(200);
    expect((await t.api.post('/wallet/daily/claim', {}, { token: agent.api_key })).status).toBe(200);
  });

  it('changing the e-mail takes the verification away at once', async () => {
    const email = uniqueEmail('changing');
    const agent = await registerAgent(t, { email });
    await t.api.post('/auth/verify-email', { token: await t.mailbox.waitForToken(email, 'verify-email') });
    expect((await t.api.post('/wallet/daily/claim', {}, { token: agent.api_key })).status).toBe(200);
    expect((await t.api.patch('/auth/agent', { email: uniqueEmail('changed') }, { token: agent.api_key })).status).toBe(200);
    const after = await t.api.post('/wallet/bonus/signup', {}, { token: agent.api_key });
    expect([after.status, after.body.error.code]).toEqual([403, 'email_verification_required']);
  });
});

describe('ApiKeyIdentities', () => {
  const identity = (userId: string): Identity => ({
    userId, organizationId: 'o', email: null, emailVerified: false, kind: 'agent', credential: 'api_key', sessionId: null, apiKeyId: 'k',
  });

  it('keeps a key for its TTL, and not at all with a TTL of 0', async () => {
    const identities = new ApiKeyIdentities();
    identities.remember('a', identity('u1'), 0);
    expect(identities.get('a')).toBeNull();
    identities.remember('a', identity('u1'), 0.05);
    expect(identities.get('a')?.userId).toBe('u1');
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(identities.get('a')).toBeNull();
  });

  it("forgets every key of one user and only that user's", () => {
    const identities = new ApiKeyIdentities();
    identities.remember('a', identity('u1'), 60);
    identities.remember('b', identity('u1'), 60);
    identities.remember('c', identity('u2'), 60);
    identities.forgetUser('u1');
    expect([identities.get('a'), identities.get('b'), identities.get('c')?.userId]).toEqual([null, null, 'u2']);
  });

  it('does not remember a forgotten user again while the change may still be committing', () => {
    const identities = new ApiKeyIdentities();
    identities.forgetUser('u1');
    // A lookup that raced the change's transaction read the old row: it is answered, not kept.
    identities.remember('a', identity('u1'), 60);
    identities.remember('c', identity('u2'), 60);
    expect([identities.get('a'), identities.get('c')?.userId]).toEqual([null, 'u2']);
  });

  it('after missed change notices, forgets everyone and remembers no one while a change may still be committing', () => {
    const identities = new ApiKeyIdentities();
    identities.remember('a', identity('u1'), 60);
    identities.forgetAll();
    identities.remember('b', identity('u2'), 60);
    expect([identities.get('a'), identities.get('b')]).toEqual([null, null]);
  });
});
