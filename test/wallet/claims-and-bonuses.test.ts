import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { registerAgent } from '../support/accounts.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { checkLedgerAfterEach, verifiedAgent } from '../support/wallet.js';

let t: TestPlatform;
beforeAll(async () => {
  t = await startTestPlatform();
});
afterAll(() => t.close());
checkLedgerAfterEach(() => t);

describe('balance and transactions', () => {
  it('a new account has a zero USD balance as decimal strings and no transactions', async () => {
    const agent = await registerAgent(t);
    const balance = await t.api.get('/wallet/balance', { token: agent.api_key });
    expect(balance.status).toBe(200);
    expect(balance.body.data).toEqual({ balance: '0.00', currency: 'USD', pending: '0.00', available: '0.00', prepaid_credits: [] });
    const transactions = await t.api.get('/wallet/transactions', { token: agent.api_key });
    expect(transactions.body.data).toEqual([]);
  });

  it('needs a Bearer', async () => {
    expect((await t.api.get('/wallet/balance')).status).toBe(401);
  });

  it('lists movements newest first with type, signed amount and the balance after', async () => {
    const agent = await verifiedAgent(t);
    await t.api.post('/wallet/bonus/signup', {}, { token: agent.api_key });
    await t.api.post('/wallet/daily/claim', {}, { token: agent.api_key });
    const list = await t.api.get('/wallet/transactions', { token: agent.api_key });
    expect(list.body.data).toMatchObject([
      { type: 'claim', direction: 'credit', amount: '0.10', balance_after: '1.10', reference: expect.stringMatching(/^daily:/) },
      { type: 'bonus', direction: 'credit', amount: '1.00', balance_after: '1.00', reference: 'signup-bonus' },
    ]);
    expect(list.body.data[0].created_at).toEqual(expect.any(String));
    const page = await t.api.get('/wallet/transactions?limit=1&offset=1', { token: agent.api_key });
    expect(page.body.data.map((row: any) => row.type)).toEqual(['bonus']);
    expect((await t.api.get('/wallet/transactions?limit=101', { token: agent.api_key })).body.error.code).toBe('invalid_limit');
    expect((await t.api.get('/wallet/transactions?offset=-1', { token: agent.api_key })).status).toBe(400);
  });

  it('GraphQL reads a user and their wallet in one query; nobody sees another user\'s wallet', async () => {
    const agent = await verifiedAgent(t);
    await t.api.post('/wallet/bonus/signup', {}, { token: agent.api_key });
    const result = await t.api.graphql('{ me { id wallet { balance currency transactions(limit: 5) { type amount balanceAfter } } } }', {}, { token: agent.api_key });
    expect(result.body.errors).toBeUndefined();
    expect(result.body.data.me.wallet).toEqual({ balance: '1.00', currency: 'USD', transactions: [{ type: 'bonus', amount: '1.00', balanceAfter: '1.00' }] });
    const direct = await t.api.graphql('{ wallet { balance } walletTransactions { amount } }', {}, { token: agent.api_key });
    expect(direct.body.data).toEqual({ wallet: { balance: '1.00' }, walletTransactions: [{ amount: '1.00' }] });
  });
});

describe('daily claim', () => {
  it('pays DAILY_CLAIM_USD once per UTC day and 409 on a second claim; eligibility follows', async () => {
    const agent = await verifiedAgent(t);
    const before = await t.api.get('/wallet/daily/eligibility', { token: agent.api_key });
    expect(before.body.data).toMatchObject({ eligible: true, amount: '0.10', last_claimed_at: null });
    const claim = await t.api.post('/wallet/daily/claim', {}, { token: agent.api_key });
    expect(claim.status).toBe(200);
    expect(claim.body.data).toMatchObject({ type: 'claim', amount: '0.10', balance: '0.10' });
    const again = await t.api.post('/wallet/daily/claim', {}, { token: agent.api_key });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('already_claimed_today');
    const after = await t.api.get('/wallet/daily/eligibility', { token: agent.api_key });
    expect(after.body.data.eligible).toBe(false);
    const next = new Date(after.body.data.next_claim_at);
    expect(next.getTime()).toBeGreaterThan(Date.now());
    expect(next.toISOString()).toMatch(/T00:00:00\.000Z$/);
  });

  it('ten concurrent claims pay exactly once', async () => {
    const agent = await verifiedAgent(t);
    const results = await Promise.all(Array.from({ length: 10 }, () => t.api.post('/wallet/daily/claim', {}, { token: agent.api_key })));
    expect(results.map((result) => result.status).sort()).toEqual([200, ...Array(9).fill(409)]);
    expect((await t.api.get('/wallet/balance', { token: agent.api_key })).body.data.balance).toBe('0.10');
  });

  it('needs a verified e-mail (403), so agents without one cannot farm it', async () => {
    const agent = await registerAgent(t);
    for (const path of ['/wallet/daily/claim', '/wallet/bonus/signup', '/wallet/bonus/payment-method']) {
      const response = await t.api.post(path, {}, { token: agent.api_key });
      expect(response.status).toBe(403);
      expect(response.body.error.code).toBe('email_verification_required');
    }
  });
});

describe('GraphQL twins', () => {
  it('claims answer the same codes through GraphQL (extensions.code and status)', async () => {
    const unverified = await registerAgent(t);
    const refused = await t.api.graphql('mutation { claimDaily { amount } }', {}, { token: unverified.api_key });
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({ code: 'email_verification_required', status: 403 });
    // Eligibility says what the claim would do: not eligible until the address is verified.
    expect((await t.api.get('/wallet/daily/eligibility', { token: unverified.api_key })).body.data.eligible).toBe(false);
    const agent = await verifiedAgent(t);
    const paid = await t.api.graphql('mutation { claimSignupBonus { amount balance } }', {}, { token: agent.api_key });
    expect(paid.body.data.claimSignupBonus).toEqual({ amount: '1.00', balance: '1.00' });
    const eligibility = await t.api.graphql('{ dailyClaimEligibility { eligible amount } referral { code joined earned } }', {}, { token: agent.api_key });
    expect(eligibility.body.data).toMatchObject({ dailyClaimEligibility: { eligible: true, amount: '0.10' }, referral: { joined: 0, earned: '0.00' } });
  });
});

describe('bonuses', () => {
  it('the signup bonus pays SIGNUP_BONUS_USD once per account', async () => {
    const agent = await verifiedAgent(t);
    const first = await t.api.post('/wallet/bonus/signup', {}, { token: agent.api_key });
    expect(first.body.data).toMatchObject({ type: 'bonus', amount: '1.00', balance: '1.00' });
    const second = await t.api.post('/wallet/bonus/signup', {}, { token: agent.api_key });
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe('bonus_already_claimed');
  });

  it('the payment-method bonus needs a stored payment method (409 payment_method_required until billing says so)', async () => {
    const agent = await verifiedAgent(t);
    const refused = await t.api.post('/wallet/bonus/payment-method', {}, { token: agent.api_key });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('payment_method_required');
    const ports = t.platform.services.ports;
    ports.hasPaymentMethod = async (_em, userId) => userId === agent.id;
    try {
      const paid = await t.api.post('/wallet/bonus/payment-method', {}, { token: agent.api_key });
      expect(paid.body.data).toMatchObject({ amount: '2.00', balance: '2.00' });
      expect((await t.api.post('/wallet/bonus/payment-method', {}, { token: agent.api_key })).status).toBe(409);
      const other = await verifiedAgent(t);
      expect((await t.api.post('/wallet/bonus/payment-method', {}, { token: other.api_key })).body.error.code).toBe('payment_method_required');
    } finally {
      delete ports.hasPaymentMethod;
    }
  });
});
