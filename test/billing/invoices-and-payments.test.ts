import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { registerAgent, signUpVerified } from '../support/accounts.js';
import { asOperator, BILLING_WEBHOOK_SECRET, deliverStripeEvent, emOf, OPERATOR_KEY, recordUsage } from '../support/billing.js';
import { fundWallet } from '../support/funding.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { checkLedgerAfterEach, verifiedAgent } from '../support/wallet.js';
import { DECLINED_PAYMENT_METHOD, FakeStripe, UNKNOWN_PAYMENT_METHOD } from '../fakes/stripe-server.js';

let t: TestPlatform;
let fake: FakeStripe;

beforeAll(async () => {
  fake = await new FakeStripe().start();
  t = await startTestPlatform({
    STRIPE_SECRET_KEY: 'sk_test_billing',
    STRIPE_WEBHOOK_SECRET: BILLING_WEBHOOK_SECRET,
    STRIPE_API_URL: fake.url,
    ADMIN_API_KEYS: `another-operator-secret-of-32-chars-at-least,${OPERATOR_KEY}`,
  });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});
checkLedgerAfterEach(() => t);

let nextYear = 2000;
/** A closed month no other test generates for (generation covers every organization of a period). */
const freshPeriod = () => `${nextYear++}-03`;
const inPeriod = (period: string, day = 10) => new Date(`${period}-${String(day).padStart(2, '0')}T12:00:00Z`);

async function generate(period: string) {
  const response = await t.api.post('/billing/invoices/generate', { period }, asOperator);
  expect(response.status).toBe(200);
  return response.body.data as { period: string; created: number; total: number; invoices: { id: string; organization_id: string; status: string; amount_due: string }[] };
}

/** An organization with usage in a fresh period, and its invoice generated. */
async function invoicedAgent(quantity = '1000', unitPriceMicros = 2_500n) {
  const agent = await verifiedAgent(t);
  const period = freshPeriod();
  await recordUsage(t, agent.organization_id, { meter: 'database.compute_seconds', quantity, unitPriceMicros, occurredAt: inPeriod(period) });
  const run = await generate(period);
  const invoice = run.invoices.find((entry) => entry.organization_id === agent.organization_id)!;
  return { agent, period, invoiceId: invoice.id };
}

async function issuedInvoice(quantity?: string) {
  const invoiced = await invoicedAgent(quantity);
  const issued = await t.api.post(`/billing/invoices/${invoiced.invoiceId}/issue`, undefined, asOperator);
  expect(issued.body.data).toEqual({ id: invoiced.invoiceId, status: 'issued' });
  return invoiced;
}

describe('usage and invoice generation', () => {
  it('bills each meter of an organization once per month, however often the same usage key is recorded', async () => {
    const agent = await verifiedAgent(t);
    const period = freshPeriod();
    const key = `db:${randomUUID()}`;
    expect(await recordUsage(t, agent.organization_id, { meter: 'database.compute_seconds', quantity: '3600', unitPriceMicros: 100n, occurredAt: inPeriod(period), idempotencyKey: key })).toBe(true);
    expect(await recordUsage(t, agent.organization_id, { meter: 'database.compute_seconds', quantity: '3600', unitPriceMicros: 100n, occurredAt: inPeriod(period), idempotencyKey: key })).toBe(false);
    await recordUsage(t, agent.organization_id, { meter: 'database.compute_seconds', quantity: '0.5', unitPriceMicros: 100n, occurredAt: inPeriod(period, 20) });
    await recordUsage(t, agent.organization_id, { meter: 'compute.hours', quantity: '2.25', unitPriceMicros: 40_000n, occurredAt: inPeriod(period, 28) });
    // The next month's usage is not this invoice's.
    await recordUsage(t, agent.organization_id, { meter: 'compute.hours', quantity: '99', unitPriceMicros: 40_000n, occurredAt: new Date(`${Number(period.slice(0, 4))}-04-01T00:00:00Z`) });

    const run = await generate(period);
    expect(run).toMatchObject({ period, created: 1, total: 1 });
    const invoice = await t.api.get(`/billing/invoices/${run.invoices[0]!.id}`, { token: agent.api_key });
    expect(invoice.status).toBe(200);
    expect(invoice.body.data).toMatchObject({
      organization_id: agent.organization_id,
      period,
      status: 'draft',
      total: '0.45005',
      amount_due: '0.45',
      amount_due_cents: 45,
      period_start: `${period}-01T00:00:00.000Z`,
    });
    expect(invoice.body.data.line_items).toEqual([
      expect.objectContaining({ kind: 'usage', item: 'compute.hours', quantity: '2.25', unit_price: '0.04', amount: '0.09', amount_due: '0.09' }),
      expect.objectContaining({ kind: 'usage', item: 'database.compute_seconds', quantity: '3600.5', unit_price: '0.0001', amount: '0.36005', amount_due: '0.36005' }),
    ]);
  });

  it('generating again for the same period creates nothing new and answers the existing invoices', async () => {
    const { period, invoiceId } = await invoicedAgent();
    const again = await generate(period);
    expect(again).toMatchObject({ created: 0, total: 1, invoices: [{ id: invoiceId }] });
    const concurrent = await Promise.all([generate(period), generate(period)]);
    expect(concurrent.map((run) => run.created)).toEqual([0, 0]);
  });

  it('shows what the wallet paid for during the month as information lines, with nothing due for them', async () => {
    const agent = await verifiedAgent(t);
    await fundWallet(t, agent.id, '3.00');
    const period = freshPeriod();
    // The deposit happened in that month (moved back in time: the ledger stamps transfers with the clock).
    await emOf(t).execute(
      `update ledger_transfer set created_at = ? where credit_account_id in (select id from ledger_account where owner_id = ?)`,
      [inPeriod(period), agent.id],
    );
    const run = await generate(period);
    const invoice = (await t.api.get(`/billing/invoices/${run.invoices.find((i) => i.organization_id === agent.organization_id)!.id}`, { token: agent.api_key })).body.data;
    expect(invoice).toMatchObject({ total: '0.00', amount_due_cents: 0 });
    expect(invoice.line_items).toEqual([expect.objectContaining({ kind: 'info', item: 'credits', quantity: '1', amount: '3.00', amount_due: '0.00' })]);
    // Nothing due: issuing it marks it paid at once.
    const issued = await t.api.post(`/billing/invoices/${invoice.id}/issue`, undefined, asOperator);
    expect(issued.body.data.status).toBe('paid');
  });

  it('refuses a month not yet ended (400 period_not_closed) and a malformed period (400 invalid_period)', async () => {
    const now = new Date();
    const current = now.toISOString().slice(0, 7);
    const open = await t.api.post('/billing/invoices/generate', { period: current }, asOperator);
    expect([open.status, open.body.error.code]).toEqual([400, 'period_not_closed']);
    const malformed = await t.api.post('/billing/invoices/generate', { period: '2024-13' }, asOperator);
    expect([malformed.status, malformed.body.error.code]).toEqual([400, 'invalid_period']);
  });

  it('is for the operator only: 401 without a credential, 403 operator_only for a user, an API key or a wrong secret', async () => {
    const user = await signUpVerified(t);
    const agent = await registerAgent(t);
    expect((await t.api.post('/billing/invoices/generate', {})).status).toBe(401);
    for (const token of [user.accessToken, agent.api_key]) {
      const refused = await t.api.post('/billing/invoices/generate', {}, { token });
      expect([refused.status, refused.body.error.code]).toEqual([403, 'operator_only']);
    }
    // A near miss of an operator secret is no credential at all.
    for (const token of [`${OPERATOR_KEY}x`, OPERATOR_KEY.slice(0, -1)]) {
      expect((await t.api.post('/billing/invoices/generate', {}, { token })).status).toBe(401);
    }
    const graphql = await t.api.graphql('mutation { generateInvoices { created } }', {}, { token: agent.api_key });
    expect(graphql.body.errors?.[0]?.extensions).toMatchObject({ code: 'operator_only', status: 403 });
  });

  it('a member of the organization and the operator read an invoice; another organization gets 404 as for an unknown id; 401 without a credential', async () => {
    const { agent, invoiceId } = await invoicedAgent();
    const stranger = await registerAgent(t);
    expect((await t.api.get(`/billing/invoices/${invoiceId}`, asOperator)).status).toBe(200);
    const hidden = await t.api.get(`/billing/invoices/${invoiceId}`, { token: stranger.api_key });
    const unknown = await t.api.get(`/billing/invoices/${randomUUID()}`, { token: stranger.api_key });
    expect([hidden.status, hidden.body.error.code]).toEqual([404, 'invoice_not_found']);
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'invoice_not_found']);
    expect((await t.api.get(`/billing/invoices/not-a-uuid`, { token: agent.api_key })).status).toBe(404);
    expect((await t.api.get(`/billing/invoices/${invoiceId}`)).status).toBe(401);
    for (const path of [`/billing/invoices/${invoiceId}/pay`]) {
      const paying = await t.api.post(path, undefined, { token: stranger.api_key });
      expect(paying.status).toBe(404);
    }
    expect((await t.api.get(`/billing/invoices/${invoiceId}/payments`, { token: stranger.api_key })).status).toBe(404);
  });
});

describe('invoice states', () => {
  it('draft -> issued once: issuing again is 409 invoice_not_draft, an unknown invoice 404', async () => {
    const { invoiceId } = await issuedInvoice();
    const again = await t.api.post(`/billing/invoices/${invoiceId}/issue`, undefined, asOperator);
    expect([again.status, again.body.error.code]).toEqual([409, 'invoice_not_draft']);
    expect((await t.api.post(`/billing/invoices/${randomUUID()}/issue`, undefined, asOperator)).status).toBe(404);
  });

  it('an issued invoice can be marked uncollectible or voided; a paid one cannot be voided', async () => {
    const { invoiceId } = await issuedInvoice();
    expect((await t.api.post(`/billing/invoices/${invoiceId}/mark-uncollectible`, undefined, asOperator)).body.data.status).toBe('uncollectible');
    expect((await t.api.post(`/billing/invoices/${invoiceId}/void`, undefined, asOperator)).body.data.status).toBe('void');
    const voidAgain = await t.api.post(`/billing/invoices/${invoiceId}/void`, undefined, asOperator);
    expect([voidAgain.status, voidAgain.body.error.code]).toEqual([409, 'invoice_not_voidable']);
  });

  it('only an issued invoice with an amount due is payable: a draft is 400 invoice_not_payable', async () => {
    const { agent, invoiceId } = await invoicedAgent();
    const draft = await t.api.post(`/billing/invoices/${invoiceId}/pay`, undefined, { token: agent.api_key });
    expect([draft.status, draft.body.error.code]).toEqual([400, 'invoice_not_payable']);
  });
});

describe('paying an invoice through Stripe', () => {
  it('creates one PaymentIntent for the amount due on the organization’s customer, with its default method; paying twice answers the same intent', async () => {
    const { agent, invoiceId } = await issuedInvoice('1000');
    const added = await t.api.post('/billing/payment-methods', { payment_method_id: 'pm_card_visa_pay', set_as_default: true }, { token: agent.api_key });
    expect(added.status).toBe(200);
    const first = await t.api.post(`/billing/invoices/${invoiceId}/pay`, undefined, { token: agent.api_key });
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ id: expect.stringMatching(/^pi_/), status: 'requires_confirmation', client_secret: expect.stringContaining('_secret_'), amount_cents: 250, invoice_id: invoiceId });
    const second = await t.api.post(`/billing/invoices/${invoiceId}/pay`, undefined, { token: agent.api_key });
    expect(second.body.data.id).toBe(first.body.data.id);
    const intent = fake.intents.get(first.body.data.id)!;
    expect(intent).toMatchObject({ amount: 250, currency: 'usd', payment_method: 'pm_card_visa_pay', metadata: { invoice_id: invoiceId } });
    expect(fake.customers.get(intent.customer!)!.metadata).toEqual({ organization_id: agent.organization_id });
    const payments = await t.api.get(`/billing/invoices/${invoiceId}/payments`, { token: agent.api_key });
    expect(payments.body.data).toEqual([expect.objectContaining({ intent_id: intent.id, amount_cents: 250, status: 'pending', failure_reason: null })]);
  });

  it('is paid only when the signed payment_intent.succeeded arrives: once, even delivered twice, and a late payment_failed changes nothing', async () => {
    const { agent, invoiceId } = await issuedInvoice();
    const intentId = (await t.api.post(`/billing/invoices/${invoiceId}/pay`, undefined, { token: agent.api_key })).body.data.id;
    expect((await t.api.get(`/billing/invoices/${invoiceId}`, { token: agent.api_key })).body.data.status).toBe('issued');
    const succeeded = fake.intentEvent(intentId, 'payment_intent.succeeded');
    expect((await deliverStripeEvent(t, succeeded)).status).toBe(200);
    expect((await deliverStripeEvent(t, succeeded)).status).toBe(200);
    // An older failure delivered after the success (out of order) is ignored: the intent succeeded.
    expect((await deliverStripeEvent(t, fake.intentEvent(intentId, 'payment_intent.payment_failed', -60))).status).toBe(200);
    const invoice = (await t.api.get(`/billing/invoices/${invoiceId}`, { token: agent.api_key })).body.data;
    expect(invoice).toMatchObject({ status: 'paid', paid_at: expect.any(String) });
    const payments = (await t.api.get(`/billing/invoices/${invoiceId}/payments`, { token: agent.api_key })).body.data;
    expect(payments).toEqual([expect.objectContaining({ status: 'succeeded', failure_reason: null })]);
    const booked = await emOf(t).execute(`select amount::text from ledger_transfer where idempotency_key = ?`, [`invoice-payment:${intentId}`]);
    expect(booked).toEqual([{ amount: '2500000' }]);
  });

  it('records a failed payment, and a success after it still pays the invoice', async () => {
    const { agent, invoiceId } = await issuedInvoice();
    const intentId = (await t.api.post(`/billing/invoices/${invoiceId}/pay`, undefined, { token: agent.api_key })).body.data.id;
    await deliverStripeEvent(t, fake.intentEvent(intentId, 'payment_intent.payment_failed'));
    let payments = (await t.api.get(`/billing/invoices/${invoiceId}/payments`, { token: agent.api_key })).body.data;
    expect(payments).toEqual([expect.objectContaining({ status: 'failed', failure_reason: 'Your card was declined.' })]);
    expect((await t.api.get(`/billing/invoices/${invoiceId}`, { token: agent.api_key })).body.data.status).toBe('issued');
    // An older "processing" arriving late does not undo the recorded failure.
    await deliverStripeEvent(t, fake.intentEvent(intentId, 'payment_intent.processing', -120));
    payments = (await t.api.get(`/billing/invoices/${invoiceId}/payments`, { token: agent.api_key })).body.data;
    expect(payments[0].status).toBe('failed');
    await deliverStripeEvent(t, fake.intentEvent(intentId, 'payment_intent.succeeded', 5));
    expect((await t.api.get(`/billing/invoices/${invoiceId}`, { token: agent.api_key })).body.data.status).toBe('paid');
  });

  it('refuses a forged webhook (400 invalid_signature) and changes nothing', async () => {
    const { agent, invoiceId } = await issuedInvoice();
    const intentId = (await t.api.post(`/billing/invoices/${invoiceId}/pay`, undefined, { token: agent.api_key })).body.data.id;
    const forged = await deliverStripeEvent(t, fake.intentEvent(intentId, 'payment_intent.succeeded'), 'whsec_forged');
    expect([forged.status, forged.body.error.code]).toEqual([400, 'invalid_signature']);
    expect((await t.api.get(`/billing/invoices/${invoiceId}`, { token: agent.api_key })).body.data.status).toBe('issued');
  });

  it('GraphQL pays and reads the same invoice as REST', async () => {
    const { agent, invoiceId } = await issuedInvoice();
    const paid = await t.api.graphql('mutation($id: ID!) { payInvoice(id: $id) { id status amountCents } }', { id: invoiceId }, { token: agent.api_key });
    expect(paid.body.data.payInvoice).toMatchObject({ status: 'requires_payment_method', amountCents: 250 });
    const read = await t.api.graphql('query($id: ID!) { invoice(id: $id) { status lineItems { item amount } } }', { id: invoiceId }, { token: agent.api_key });
    expect(read.body.data.invoice).toEqual({ status: 'issued', lineItems: [{ item: 'database.compute_seconds', amount: '2.50' }] });
  });
});

describe('payment methods', () => {
  it('attaches methods to the organization’s Stripe customer; the first is the default, set_as_default moves it, deleting the default promotes the most recent other', async () => {
    const agent = await verifiedAgent(t);
    const add = (id: string, setAsDefault?: boolean) =>
      t.api.post('/billing/payment-methods', { payment_method_id: id, ...(setAsDefault === undefined ? {} : { set_as_default: setAsDefault }) }, { token: agent.api_key });
    const first = (await add('pm_card_first')).body.data;
    expect(first).toMatchObject({ stripe_payment_method_id: 'pm_card_first', brand: 'visa', last4: '4242', is_default: true });
    await add('pm_card_second');
    await add('pm_card_third', true);
    let list = (await t.api.get('/billing/payment-methods', { token: agent.api_key })).body.data;
    expect(list.map((m: any) => [m.stripe_payment_method_id, m.is_default])).toEqual([['pm_card_third', true], ['pm_card_second', false], ['pm_card_first', false]]);
    expect(fake.attached.get('pm_card_third')).toBe(fake.attached.get('pm_card_first'));
    const third = list[0];
    expect((await t.api.delete(`/billing/payment-methods/${third.id}`, { token: agent.api_key })).status).toBe(204);
    expect(fake.attached.has('pm_card_third')).toBe(false);
    list = (await t.api.get('/billing/payment-methods', { token: agent.api_key })).body.data;
    expect(list.map((m: any) => [m.stripe_payment_method_id, m.is_default])).toEqual([['pm_card_second', true], ['pm_card_first', false]]);
  });

  it('answers 400 with Stripe’s reason when Stripe refuses the method, and 400 when the id is missing', async () => {
    const agent = await verifiedAgent(t);
    const declined = await t.api.post('/billing/payment-methods', { payment_method_id: DECLINED_PAYMENT_METHOD }, { token: agent.api_key });
    expect([declined.status, declined.body.error]).toEqual([400, { code: 'payment_method_refused', message: 'Your card was declined.' }]);
    const unknown = await t.api.post('/billing/payment-methods', { payment_method_id: UNKNOWN_PAYMENT_METHOD }, { token: agent.api_key });
    expect([unknown.status, unknown.body.error.message]).toEqual([400, `No such PaymentMethod: '${UNKNOWN_PAYMENT_METHOD}'`]);
    const missing = await t.api.post('/billing/payment-methods', {}, { token: agent.api_key });
    expect([missing.status, missing.body.error.code]).toEqual([400, 'payment_method_id_required']);
    expect((await t.api.get('/billing/payment-methods', { token: agent.api_key })).body.data).toEqual([]);
  });

  it('another organization’s method is 404 to delete, and unknown ids are 404', async () => {
    const owner = await verifiedAgent(t);
    const stranger = await verifiedAgent(t);
    const method = (await t.api.post('/billing/payment-methods', { payment_method_id: 'pm_card_owned' }, { token: owner.api_key })).body.data;
    const hidden = await t.api.delete(`/billing/payment-methods/${method.id}`, { token: stranger.api_key });
    expect([hidden.status, hidden.body.error.code]).toEqual([404, 'payment_method_not_found']);
    expect((await t.api.delete(`/billing/payment-methods/${randomUUID()}`, { token: owner.api_key })).status).toBe(404);
    expect((await t.api.get('/billing/payment-methods', { token: stranger.api_key })).body.data).toEqual([]);
    expect((await t.api.get('/billing/payment-methods', { token: owner.api_key })).body.data).toHaveLength(1);
  });

  it('the first stored method makes the wallet’s payment-method bonus claimable', async () => {
    const agent = await verifiedAgent(t);
    const before = await t.api.post('/wallet/bonus/payment-method', undefined, { token: agent.api_key });
    expect([before.status, before.body.error.code]).toEqual([409, 'payment_method_required']);
    await t.api.post('/billing/payment-methods', { payment_method_id: 'pm_card_bonus' }, { token: agent.api_key });
    const after = await t.api.post('/wallet/bonus/payment-method', undefined, { token: agent.api_key });
    expect(after.status).toBe(200);
  });
});

describe('usage summary', () => {
  it('shows recorded usage per day and meter to members and the operator; 404 for another organization', async () => {
    const agent = await verifiedAgent(t);
    const stranger = await registerAgent(t);
    await recordUsage(t, agent.organization_id, { meter: 'compute.hours', quantity: '1.5', unitPriceMicros: 20_000n, occurredAt: new Date('2024-02-03T10:00:00Z') });
    await recordUsage(t, agent.organization_id, { meter: 'compute.hours', quantity: '0.5', unitPriceMicros: 20_000n, occurredAt: new Date('2024-02-03T23:00:00Z') });
    const path = `/billing/usage/${agent.organization_id}?start_date=2024-02-01&end_date=2024-02-29`;
    const mine = await t.api.get(path, { token: agent.api_key });
    expect(mine.body.data).toEqual({
      organization_id: agent.organization_id,
      start_date: '2024-02-01',
      end_date: '2024-02-29',
      publishers: [],
      meters: [{ date: '2024-02-03', meter: 'compute.hours', quantity: '2', amount: '0.04' }],
    });
    expect((await t.api.get(path, asOperator)).body.data.meters).toHaveLength(1);
    const hidden = await t.api.get(path, { token: stranger.api_key });
    expect([hidden.status, hidden.body.error.code]).toEqual([404, 'organization_not_found']);
    expect((await t.api.get(path)).status).toBe(401);
  });

  it.each([
    ['start after end', 'start_date=2024-03-02&end_date=2024-03-01'],
    ['more than 366 days', 'start_date=2023-01-01&end_date=2024-01-03'],
    ['not an ISO date', 'start_date=2024-02-30&end_date=2024-03-01'],
    ['not a date at all', 'start_date=yesterday'],
  ])('refuses a bad range (%s) with 400 invalid_date_range', async (_name, query) => {
    const agent = await registerAgent(t);
    const response = await t.api.get(`/billing/usage/${agent.organization_id}?${query}`, { token: agent.api_key });
    expect([response.status, response.body.error.code]).toEqual([400, 'invalid_date_range']);
  });
});

describe('the same rows through GraphQL', () => {
  it('payment methods, usage summary, invoice payments and health answer as their REST rows do', async () => {
    const agent = await verifiedAgent(t);
    const added = await t.api.graphql(
      'mutation($input: AddPaymentMethodInput!) { addPaymentMethod(input: $input) { id isDefault last4 } }',
      { input: { paymentMethodId: 'pm_card_graphql', setAsDefault: true } },
      { token: agent.api_key },
    );
    expect(added.body.data.addPaymentMethod).toMatchObject({ isDefault: true, last4: '4242' });
    const listed = await t.api.graphql('{ paymentMethods { id } }', {}, { token: agent.api_key });
    expect(listed.body.data.paymentMethods).toEqual([{ id: added.body.data.addPaymentMethod.id }]);
    const deleted = await t.api.graphql('mutation($id: ID!) { deletePaymentMethod(id: $id) }', { id: added.body.data.addPaymentMethod.id }, { token: agent.api_key });
    expect(deleted.body.data.deletePaymentMethod).toBe(true);
    const usage = await t.api.graphql(
      'query($id: ID!) { usageSummary(organizationId: $id, startDate: "2024-01-01", endDate: "2024-01-31") { startDate meters { meter } } }',
      { id: agent.organization_id },
      { token: agent.api_key },
    );
    expect(usage.body.data.usageSummary).toEqual({ startDate: '2024-01-01', meters: [] });
    const hidden = await t.api.graphql('query($id: ID!) { invoicePayments(invoiceId: $id) { id } }', { id: randomUUID() }, { token: agent.api_key });
    expect(hidden.body.errors?.[0]?.extensions).toMatchObject({ code: 'invoice_not_found', status: 404 });
    const health = await t.api.graphql('{ billingHealth { status stripeConfigured } }');
    expect(health.body.data.billingHealth).toEqual({ status: 'ok', stripeConfigured: true });
  });
});

describe('billing health', () => {
  it('answers without a credential: database, Stripe configured, the last invoice run; never a secret', async () => {
    await invoicedAgent();
    const health = await t.api.get('/billing/health');
    expect(health.status).toBe(200);
    expect(health.body.data).toEqual({ status: 'ok', database: true, stripe_configured: true, on_chain_payouts: false, last_invoice_run_at: expect.any(String) });
    expect(JSON.stringify(health.body)).not.toContain('sk_test');
  });
});
