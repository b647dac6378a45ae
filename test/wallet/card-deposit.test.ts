import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Stripe from 'stripe';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { registerAgent } from '../support/accounts.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { checkLedgerAfterEach, verifiedAgent } from '../support/wallet.js';
import { FakeStripe } from '../fakes/stripe-server.js';

const WEBHOOK_SECRET = 'whsec_test_secret_for_wallet_deposits';
let t: TestPlatform;
let fake: FakeStripe;
const stripe = new Stripe('sk_test_wallet');

beforeAll(async () => {
  fake = await new FakeStripe().start();
  t = await startTestPlatform({ STRIPE_SECRET_KEY: 'sk_test_wallet', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_URL: fake.url });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});
checkLedgerAfterEach(() => t);

function deliver(event: unknown, secret = WEBHOOK_SECRET) {
  const payload = JSON.stringify(event);
  const signature = stripe.webhooks.generateTestHeaderString({ payload, secret });
  return t.api.request('POST', '/webhooks/stripe', undefined, { raw: payload, headers: { 'stripe-signature': signature } });
}

async function startDeposit(token: string, amountCents = 2_500) {
  const response = await t.api.post('/wallet/deposit', { amount_cents: amountCents }, { token });
  expect(response.status).toBe(200);
  return response.body.data as { id: string; url: string; amount_cents: number };
}

const balanceOf = async (token: string) => (await t.api.get('/wallet/balance', { token })).body.data.balance;

describe('card deposit', () => {
  it('creates a Stripe Checkout Session with the real SDK and answers its URL and id', async () => {
    const agent = await verifiedAgent(t);
    const checkout = await startDeposit(agent.api_key);
    expect(checkout).toEqual({ id: expect.stringMatching(/^cs_test_/), url: expect.stringMatching(/^https:\/\/checkout\.stripe\.test\//), amount_cents: 2_500 });
    expect(fake.sessions.get(checkout.id)).toMatchObject({ amount_total: 2_500, currency: 'usd', client_reference_id: agent.id, metadata: { user_id: agent.id } });
    expect(fake.authorizations.at(-1)).toBe('Bearer sk_test_wallet');
    expect(await balanceOf(agent.api_key)).toBe('0.00');
  });

  it.each([[99], [10_001], [0], [-100]])('refuses %p cents with 400 (1 to 100 USD)', async (amount) => {
    const agent = await verifiedAgent(t);
    const response = await t.api.post('/wallet/deposit', { amount_cents: amount }, { token: agent.api_key });
    expect([response.status, response.body.error.code]).toEqual([400, 'invalid_amount']);
  });

  it('refuses a non-integer amount with 400', async () => {
    const agent = await verifiedAgent(t);
    const response = await t.api.post('/wallet/deposit', { amount_cents: 150.5 }, { token: agent.api_key });
    expect(response.status).toBe(400);
  });

  it('needs a verified e-mail (403)', async () => {
    const agent = await registerAgent(t);
    const response = await t.api.post('/wallet/deposit', { amount_cents: 1_000 }, { token: agent.api_key });
    expect([response.status, response.body.error.code]).toEqual([403, 'email_verification_required']);
  });

  it('answers 503 card_payments_unavailable without Stripe settings', async () => {
    const agent = await verifiedAgent(t);
    const saved = t.platform.services.config.stripe;
    t.platform.services.config.stripe = {};
    try {
      const response = await t.api.post('/wallet/deposit', { amount_cents: 1_000 }, { token: agent.api_key });
      expect([response.status, response.body.error.code]).toEqual([503, 'card_payments_unavailable']);
    } finally {
      t.platform.services.config.stripe = saved;
    }
  });
});

describe('card deposit while Stripe is down', () => {
  it('answers 502 card_payments_unavailable, not a 500, when Stripe cannot be reached or answers 5xx', async () => {
    const agent = await verifiedAgent(t);
    const saved = t.platform.services.config.stripe;
    const closed = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo;
        server.close(() => resolve(port));
      });
    });
    t.platform.services.config.stripe = { ...saved, apiUrl: `http://127.0.0.1:${closed}` };
    try {
      const response = await t.api.post('/wallet/deposit', { amount_cents: 1_000 }, { token: agent.api_key });
      expect([response.status, response.body.error.code]).toEqual([502, 'card_payments_unavailable']);
    } finally {
      t.platform.services.config.stripe = saved;
    }
  });
});

describe('Stripe webhook', () => {
  it('credits the wallet once when checkout.session.completed arrives signed, even delivered twice', async () => {
    const agent = await verifiedAgent(t);
    const checkout = await startDeposit(agent.api_key, 2_500);
    const event = fake.paidEvent(checkout.id);
    const first = await deliver(event);
    expect([first.status, first.body]).toEqual([200, { received: true }]);
    expect((await deliver(event)).status).toBe(200);
    expect(await balanceOf(agent.api_key)).toBe('25.00');
    const [deposit] = (await t.api.get('/wallet/transactions', { token: agent.api_key })).body.data;
    expect(deposit).toMatchObject({ type: 'deposit', amount: '25.00', balance_after: '25.00', reference: checkout.id });
  });

  it('pays once when deliveries race or arrive out of order (async_payment_succeeded before completed)', async () => {
    const agent = await verifiedAgent(t);
    const checkout = await startDeposit(agent.api_key, 1_000);
    const events = [
      fake.paidEvent(checkout.id, 'checkout.session.async_payment_succeeded'),
      fake.paidEvent(checkout.id),
      fake.paidEvent(checkout.id),
    ];
    const results = await Promise.all(events.map((event) => deliver(event)));
    expect(results.map((result) => result.status)).toEqual([200, 200, 200]);
    expect(await balanceOf(agent.api_key)).toBe('10.00');
  });

  it('refuses a wrong signature with 400 and credits nothing', async () => {
    const agent = await verifiedAgent(t);
    const checkout = await startDeposit(agent.api_key);
    const forged = await deliver(fake.paidEvent(checkout.id), 'whsec_not_ours');
    expect([forged.status, forged.body.error.code]).toEqual([400, 'invalid_signature']);
    const unsigned = await t.api.request('POST', '/webhooks/stripe', undefined, { raw: JSON.stringify(fake.paidEvent(checkout.id)) });
    expect(unsigned.status).toBe(400);
    expect(await balanceOf(agent.api_key)).toBe('0.00');
  });

  it('credits the deposit asked for, in dollars only: not tax added on top, less after a discount, nothing in another currency', async () => {
    const agent = await verifiedAgent(t);
    const taxed = fake.paidEvent((await startDeposit(agent.api_key, 1_000)).id);
    (taxed.data.object as any).amount_total = 1_190;
    expect((await deliver(taxed)).status).toBe(200);
    expect(await balanceOf(agent.api_key)).toBe('10.00');
    const discounted = fake.paidEvent((await startDeposit(agent.api_key, 1_000)).id);
    (discounted.data.object as any).amount_total = 800;
    await deliver(discounted);
    expect(await balanceOf(agent.api_key)).toBe('18.00');
    const euros = fake.paidEvent((await startDeposit(agent.api_key, 1_000)).id);
    (euros.data.object as any).currency = 'eur';
    expect((await deliver(euros)).status).toBe(200);
    expect(await balanceOf(agent.api_key)).toBe('18.00');
  });

  it('acknowledges events it does not act on (unpaid, expired, other types) without crediting', async () => {
    const agent = await verifiedAgent(t);
    const checkout = await startDeposit(agent.api_key);
    const unpaid = fake.paidEvent(checkout.id);
    (unpaid.data.object as any).payment_status = 'unpaid';
    expect((await deliver(unpaid)).status).toBe(200);
    expect((await deliver(fake.paidEvent(checkout.id, 'checkout.session.expired'))).status).toBe(200);
    expect(await balanceOf(agent.api_key)).toBe('0.00');
  });
});
