import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { registerAgent, signUpVerified, type SignedInUser } from '../support/accounts.js';
import { asOperator, emOf, OPERATOR_KEY } from '../support/billing.js';
import { fundPrepaid, fundWallet } from '../support/funding.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { createPublisher } from '../support/publishers.js';
import { checkLedgerAfterEach } from '../support/wallet.js';
import { getAccountBalance, prepaidAccountId, walletAccountId } from '../../shared/ledger/index.js';

let t: TestPlatform;

beforeAll(async () => {
  t = await startTestPlatform({ ADMIN_API_KEYS: OPERATOR_KEY, PAYOUT_HOLD_DAYS: '0' });
});
afterAll(() => t?.close());
checkLedgerAfterEach(() => t);

interface Seller {
  owner: SignedInUser;
  slug: string;
  publisherId: string;
  token: string;
}

/** A publisher (2.5% gateway fee) and its owner. */
async function seller(): Promise<Seller> {
  const owner = await signUpVerified(t);
  const publisher = await createPublisher(t, owner.accessToken);
  return { owner, slug: publisher.slug, publisherId: publisher.id, token: owner.accessToken };
}

/** A payer holding `credits` with the publisher. */
async function payerWithCredits(s: Seller, credits = '10.00') {
  const payer = await registerAgent(t);
  await fundPrepaid(t, payer.id, s.publisherId, credits);
  return payer;
}

const charge = (s: Seller, body: Record<string, unknown>, headers: Record<string, string> = {}, token = s.token) =>
  t.api.post(`/billing/publishers/${s.slug}/charges`, body, { token, headers });

async function charged(s: Seller, payerId: string, amount: string) {
  const response = await charge(s, { payer_id: payerId, amount, description: 'API usage' });
  expect(response.status).toBe(200);
  return response.body.data as Record<string, any>;
}

const micros = async (account: string) => (await getAccountBalance(emOf(t), account)).available;
const earnings = async (s: Seller) => (await t.api.get(`/billing/publishers/${s.slug}/earnings`, { token: s.token })).body.data;

describe('charges need the payer’s consent', () => {
  it('charges the payer’s credits with the publisher: the payable credited, the gateway fee to platform revenue', async () => {
    const s = await seller();
    const payer = await payerWithCredits(s, '10.00');
    const info = await charged(s, payer.id, '2.00');
    expect(info).toMatchObject({ payer_id: payer.id, publisher_id: s.publisherId, amount: '2.00', fee: '0.05', refunded_amount: '0.00', status: 'succeeded', source: 'credits' });
    expect(await micros(prepaidAccountId(payer.id, s.publisherId))).toBe(8_000_000n);
    expect(await earnings(s)).toMatchObject({ balance: '1.95', available: '1.95', pending_payouts: '0.00' });
    const read = await t.api.get(`/billing/publishers/${s.slug}/charges/${info.id}`, { token: s.token });
    expect(read.body.data).toEqual(info);
    // The payer's usage summary shows it that day, with the fee in it.
    const today = new Date().toISOString().slice(0, 10);
    const usage = await t.api.get(`/billing/usage/default?start_date=${today}&end_date=${today}`, { token: payer.api_key });
    expect(usage.body.data).toMatchObject({ organization_id: payer.organization_id, publishers: [{ date: today, publisher_id: s.publisherId, calls: 1, amount: '2.00', fees: '0.05' }] });
  });

  it('never takes the general balance without an allowance (402); within one, up to its monthly amount; not after it is revoked', async () => {
    const s = await seller();
    const payer = await registerAgent(t);
    await fundWallet(t, payer.id, '20.00');
    const refused = await charge(s, { payer_id: payer.id, amount: '1.00', description: 'x' });
    expect([refused.status, refused.body.error.code]).toEqual([402, 'insufficient_balance']);

    const granted = await t.api.post('/billing/allowances', { publisher_slug: s.slug, monthly_limit: '5.00' }, { token: payer.api_key });
    expect(granted.status).toBe(200);
    expect(granted.body.data).toMatchObject({ publisher_slug: s.slug, monthly_limit: '5.00', spent_this_month: '0.00', active: true });
    expect((await charged(s, payer.id, '3.00')).source).toBe('allowance');
    const overLimit = await charge(s, { payer_id: payer.id, amount: '2.50', description: 'x' });
    expect([overLimit.status, overLimit.body.error.code]).toEqual([402, 'insufficient_balance']);
    expect(await micros(walletAccountId(payer.id))).toBe(17_000_000n);
    const list = (await t.api.get('/billing/allowances', { token: payer.api_key })).body.data;
    expect(list).toEqual([expect.objectContaining({ id: granted.body.data.id, spent_this_month: '3.00' })]);

    const revoked = await t.api.delete(`/billing/allowances/${granted.body.data.id}`, { token: payer.api_key });
    expect(revoked.body.data).toMatchObject({ active: false, revoked_at: expect.any(String) });
    const afterRevoke = await charge(s, { payer_id: payer.id, amount: '1.00', description: 'x' });
    expect(afterRevoke.status).toBe(402);
    // Another payer cannot revoke (or see) it.
    const stranger = await registerAgent(t);
    expect((await t.api.delete(`/billing/allowances/${granted.body.data.id}`, { token: stranger.api_key })).status).toBe(404);
  });

  it('an expired allowance allows nothing; a past expiry is refused when granting', async () => {
    const s = await seller();
    const payer = await registerAgent(t);
    const past = await t.api.post('/billing/allowances', { publisher_slug: s.slug, monthly_limit: '5.00', expires_at: '2020-01-01T00:00:00Z' }, { token: payer.api_key });
    expect([past.status, past.body.error.code]).toEqual([400, 'invalid_expiry']);
    const unknown = await t.api.post('/billing/allowances', { publisher_slug: 'no-such-publisher', monthly_limit: '5.00' }, { token: payer.api_key });
    expect(unknown.status).toBe(404);
  });

  it('a charge racing the allowance’s revoke is taken before the revoke or not at all', async () => {
    const s = await seller();
    const payer = await registerAgent(t);
    await fundWallet(t, payer.id, '10.00');
    const allowance = (await t.api.post('/billing/allowances', { publisher_slug: s.slug, monthly_limit: '10.00' }, { token: payer.api_key })).body.data;
    const [revoke, ...charges] = await Promise.all([
      t.api.delete(`/billing/allowances/${allowance.id}`, { token: payer.api_key }),
      ...Array.from({ length: 5 }, () => charge(s, { payer_id: payer.id, amount: '1.00', description: 'race' })),
    ]);
    const revokedAt = new Date(revoke.body.data.revoked_at).getTime();
    const taken = charges.filter((response) => response.status === 200);
    expect(charges.every((response) => response.status === 200 || response.body.error.code === 'insufficient_balance')).toBe(true);
    for (const response of taken) expect(new Date(response.body.data.created_at).getTime()).toBeLessThanOrEqual(revokedAt);
    expect(await micros(walletAccountId(payer.id))).toBe(10_000_000n - BigInt(taken.length) * 1_000_000n);
    expect((await charge(s, { payer_id: payer.id, amount: '1.00', description: 'after' })).status).toBe(402);
  });

  it('refuses bad input with 400: a payer that is not a uuid, a zero or malformed amount', async () => {
    const s = await seller();
    for (const body of [{ payer_id: 'bob', amount: '1.00' }, { payer_id: randomUUID(), amount: '0' }, { payer_id: randomUUID(), amount: '1e3' }]) {
      const response = await charge(s, body);
      expect(response.status).toBe(400);
    }
  });
});

describe('refunds', () => {
  it('refund part, then the rest by default: the fee comes back in proportion, never more than the charge', async () => {
    const s = await seller();
    const payer = await payerWithCredits(s, '4.00');
    const info = await charged(s, payer.id, '4.00');
    const partial = await t.api.post(`/billing/publishers/${s.slug}/charges/${info.id}/refund`, { amount: '1.00', reason: 'outage' }, { token: s.token });
    expect(partial.body.data).toMatchObject({ refunded_amount: '1.00', status: 'partially_refunded' });
    expect(await micros(prepaidAccountId(payer.id, s.publisherId))).toBe(1_000_000n);
    const rest = await t.api.post(`/billing/publishers/${s.slug}/charges/${info.id}/refund`, { reason: 'cancelled' }, { token: s.token });
    expect(rest.body.data).toMatchObject({ refunded_amount: '4.00', status: 'refunded' });
    expect(await micros(prepaidAccountId(payer.id, s.publisherId))).toBe(4_000_000n);
    expect(await earnings(s)).toMatchObject({ balance: '0.00' });
    const more = await t.api.post(`/billing/publishers/${s.slug}/charges/${info.id}/refund`, { amount: '0.01' }, { token: s.token });
    expect([more.status, more.body.error.code]).toEqual([400, 'refund_exceeds_charge']);
  });

  it('20 concurrent refunds of one charge refund at most its amount', async () => {
    const s = await seller();
    const payer = await payerWithCredits(s, '1.00');
    const info = await charged(s, payer.id, '1.00');
    const results = await Promise.all(
      Array.from({ length: 20 }, () => t.api.post(`/billing/publishers/${s.slug}/charges/${info.id}/refund`, { amount: '0.30' }, { token: s.token })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(3);
    expect(results.filter((r) => r.status === 400).every((r) => r.body.error.code === 'refund_exceeds_charge')).toBe(true);
    const after = (await t.api.get(`/billing/publishers/${s.slug}/charges/${info.id}`, { token: s.token })).body.data;
    expect(after).toMatchObject({ refunded_amount: '0.90', status: 'partially_refunded' });
    expect(await micros(prepaidAccountId(payer.id, s.publisherId))).toBe(900_000n);
  });
});

describe('slashes', () => {
  it('the owner or the operator takes a penalty from earnings back to the charge’s payer (204); 402 insufficient_earnings beyond them', async () => {
    const s = await seller();
    const payer = await payerWithCredits(s, '2.00');
    const info = await charged(s, payer.id, '2.00');
    const slashed = await t.api.post(`/billing/publishers/${s.slug}/charges/${info.id}/slash`, { amount: '0.50', reason: 'SLA breach' }, { token: s.token });
    expect([slashed.status, slashed.body]).toEqual([204, null]);
    const byOperator = await t.api.post(`/billing/publishers/${s.slug}/charges/${info.id}/slash`, { amount: '0.25', reason: 'abuse' }, asOperator);
    expect(byOperator.status).toBe(204);
    expect(await micros(prepaidAccountId(payer.id, s.publisherId))).toBe(750_000n);
    expect((await t.api.get(`/billing/publishers/${s.slug}/charges/${info.id}`, { token: s.token })).body.data.slashed_amount).toBe('0.75');
    // Earnings left: 1.95 - 0.75 = 1.20; what remains of the charge: 1.25.
    const tooMuch = await t.api.post(`/billing/publishers/${s.slug}/charges/${info.id}/slash`, { amount: '1.21', reason: 'x' }, asOperator);
    expect([tooMuch.status, tooMuch.body.error.code]).toEqual([402, 'insufficient_earnings']);
    const beyondCharge = await t.api.post(`/billing/publishers/${s.slug}/charges/${info.id}/slash`, { amount: '1.26', reason: 'x' }, asOperator);
    expect([beyondCharge.status, beyondCharge.body.error.code]).toEqual([400, 'slash_exceeds_charge']);
  });
});

describe('payouts', () => {
  it('without a chain configured a payout stays pending, holding the earnings, until the operator marks it paid with its hash', async () => {
    const s = await seller();
    const payer = await payerWithCredits(s, '2.00');
    await charged(s, payer.id, '2.00');
    const created = await t.api.post(`/billing/publishers/${s.slug}/payouts`, { amount: '1.50' }, { token: s.token });
    expect(created.status).toBe(200);
    const payout = created.body.data;
    expect(payout).toMatchObject({ amount: '1.50', status: 'pending', wallet_address: '0x1111111111111111111111111111111111111111', tx_hash: null });
    expect(await earnings(s)).toMatchObject({ balance: '1.95', pending_payouts: '1.50', available: '0.45' });
    const byOwner = await t.api.post(`/billing/publishers/${s.slug}/payouts/${payout.id}/mark-paid`, { tx_hash: `0x${'ab'.repeat(32)}` }, { token: s.token });
    expect([byOwner.status, byOwner.body.error.code]).toEqual([403, 'operator_only']);
    const badHash = await t.api.post(`/billing/publishers/${s.slug}/payouts/${payout.id}/mark-paid`, { tx_hash: '0x12' }, asOperator);
    expect([badHash.status, badHash.body.error.code]).toEqual([400, 'invalid_tx_hash']);
    const paid = await t.api.post(`/billing/publishers/${s.slug}/payouts/${payout.id}/mark-paid`, { tx_hash: `0x${'ab'.repeat(32)}` }, asOperator);
    expect(paid.body.data).toMatchObject({ status: 'paid', tx_hash: `0x${'ab'.repeat(32)}` });
    expect(await earnings(s)).toMatchObject({ balance: '0.45', pending_payouts: '0.00', available: '0.45' });
    const again = await t.api.post(`/billing/publishers/${s.slug}/payouts/${payout.id}/mark-paid`, { tx_hash: `0x${'cd'.repeat(32)}` }, asOperator);
    expect([again.status, again.body.error.code]).toEqual([409, 'payout_not_open']);
    expect((await t.api.get(`/billing/publishers/${s.slug}/payouts/${payout.id}`, { token: s.token })).body.data.status).toBe('paid');
    // One that will not be paid is failed by the operator: its money is available again.
    const stuck = (await t.api.post(`/billing/publishers/${s.slug}/payouts`, { amount: '0.40' }, { token: s.token })).body.data;
    const failed = await t.api.post(`/billing/publishers/${s.slug}/payouts/${stuck.id}/mark-failed`, { reason: 'address rejected' }, asOperator);
    expect(failed.body.data).toMatchObject({ status: 'failed', failure_reason: 'address rejected' });
    expect(await earnings(s)).toMatchObject({ balance: '0.45', pending_payouts: '0.00', available: '0.45' });
  });

  it('earnings younger than PAYOUT_HOLD_DAYS are not available (402 insufficient_earnings)', async () => {
    const s = await seller();
    const payer = await payerWithCredits(s, '2.00');
    await charged(s, payer.id, '2.00');
    const payouts = t.platform.services.config.payouts;
    payouts.holdDays = 7;
    try {
      expect(await earnings(s)).toMatchObject({ balance: '1.95', on_hold: '1.95', available: '0.00' });
      const refused = await t.api.post(`/billing/publishers/${s.slug}/payouts`, { amount: '0.01' }, { token: s.token });
      expect([refused.status, refused.body.error.code]).toEqual([402, 'insufficient_earnings']);
    } finally {
      payouts.holdDays = 0;
    }
  });

  it('20 concurrent payouts never exceed the available earnings', async () => {
    const s = await seller();
    const payer = await payerWithCredits(s, '1.00');
    await charged(s, payer.id, '1.00');
    const results = await Promise.all(Array.from({ length: 20 }, () => t.api.post(`/billing/publishers/${s.slug}/payouts`, { amount: '0.10' }, { token: s.token })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(9);
    expect(results.filter((r) => r.status === 402).every((r) => r.body.error.code === 'insufficient_earnings')).toBe(true);
    expect(await earnings(s)).toMatchObject({ balance: '0.975', pending_payouts: '0.90', available: '0.075' });
  });

  it('payouts and slashes racing for the same earnings never spend more than them together', async () => {
    const s = await seller();
    const payer = await payerWithCredits(s, '1.00');
    const info = await charged(s, payer.id, '1.00');
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0
          ? t.api.post(`/billing/publishers/${s.slug}/payouts`, { amount: '0.10' }, { token: s.token })
          : t.api.post(`/billing/publishers/${s.slug}/charges/${info.id}/slash`, { amount: '0.10', reason: 'race' }, asOperator),
      ),
    );
    const paidOut = results.filter((r, i) => i % 2 === 0 && r.status === 200).length;
    const slashed = results.filter((r, i) => i % 2 === 1 && r.status === 204).length;
    expect(paidOut + slashed).toBe(9);
    expect(results.filter((r) => r.status !== 200 && r.status !== 204).every((r) => r.status === 402 && r.body.error.code === 'insufficient_earnings')).toBe(true);
    const dollars = (tenths: number) => (tenths / 10).toFixed(2);
    expect(await earnings(s)).toMatchObject({ pending_payouts: dollars(paidOut), available: '0.075' });
    expect((await t.api.get(`/billing/publishers/${s.slug}/charges/${info.id}`, { token: s.token })).body.data.slashed_amount).toBe(dollars(slashed));
  });
});

describe('Idempotency-Key', () => {
  it('the same key replays the first answer (one charge, one movement); with another body it is 409 idempotency_key_reused', async () => {
    const s = await seller();
    const payer = await payerWithCredits(s, '5.00');
    const key = { 'idempotency-key': `charge-${randomUUID()}` };
    const body = { payer_id: payer.id, amount: '1.00', description: 'once' };
    const [first, second] = await Promise.all([charge(s, body, key), charge(s, body, key)]).then(async (both) => {
      // A replay racing the first may be told the key is in use: it then replays once the first is done.
      return Promise.all(both.map(async (response) => (response.status === 409 ? charge(s, body, key) : response)));
    });
    expect(first.status).toBe(200);
    expect(second.body.data).toEqual(first.body.data);
    expect(await micros(prepaidAccountId(payer.id, s.publisherId))).toBe(4_000_000n);
    const reused = await charge(s, { ...body, amount: '2.00' }, key);
    expect([reused.status, reused.body.error.code]).toEqual([409, 'idempotency_key_reused']);
    const viaGraphQL = await t.api.graphql(
      'mutation($slug: String!, $input: CreateChargeInput!, $key: String) { createPublisherCharge(slug: $slug, input: $input, idempotencyKey: $key) { id } }',
      { slug: s.slug, input: { payerId: payer.id, amount: '1.00', description: 'once' }, key: key['idempotency-key'] },
      { token: s.token },
    );
    expect(viaGraphQL.body.data.createPublisherCharge.id).toBe(first.body.data.id);
    const refundKey = { 'idempotency-key': `refund-${randomUUID()}` };
    const refunds = [];
    for (let i = 0; i < 2; i++) refunds.push(await t.api.post(`/billing/publishers/${s.slug}/charges/${first.body.data.id}/refund`, { amount: '0.40' }, { token: s.token, headers: refundKey }));
    expect(refunds[1]!.body.data).toEqual(refunds[0]!.body.data);
    expect(refunds[0]!.body.data.refunded_amount).toBe('0.40');
    const payoutKey = { 'idempotency-key': `payout-${randomUUID()}` };
    const payoutA = await t.api.post(`/billing/publishers/${s.slug}/payouts`, { amount: '0.10' }, { token: s.token, headers: payoutKey });
    const payoutB = await t.api.post(`/billing/publishers/${s.slug}/payouts`, { amount: '0.10' }, { token: s.token, headers: payoutKey });
    expect(payoutB.body.data.id).toBe(payoutA.body.data.id);
  });
});

describe('the same rows through GraphQL', () => {
  it('allowances, charges, refunds, slashes, payouts and earnings answer as their REST rows do', async () => {
    const s = await seller();
    const payer = await registerAgent(t);
    await fundWallet(t, payer.id, '5.00');
    const granted = await t.api.graphql(
      'mutation($input: GrantAllowanceInput!) { grantSpendingAllowance(input: $input) { id monthlyLimit active } }',
      { input: { publisherSlug: s.slug, monthlyLimit: '2.00' } },
      { token: payer.api_key },
    );
    expect(granted.body.data.grantSpendingAllowance).toMatchObject({ monthlyLimit: '2.00', active: true });
    const charged = await t.api.graphql(
      'mutation($slug: String!, $input: CreateChargeInput!) { createPublisherCharge(slug: $slug, input: $input) { id source amount } }',
      { slug: s.slug, input: { payerId: payer.id, amount: '2.00', description: 'via GraphQL' } },
      { token: s.token },
    );
    const chargeId = charged.body.data.createPublisherCharge.id;
    expect(charged.body.data.createPublisherCharge).toMatchObject({ source: 'allowance', amount: '2.00' });
    const refunded = await t.api.graphql(
      'mutation($slug: String!, $id: ID!) { refundPublisherCharge(slug: $slug, chargeId: $id, input: { amount: "0.50" }) { refundedAmount status } }',
      { slug: s.slug, id: chargeId },
      { token: s.token },
    );
    expect(refunded.body.data.refundPublisherCharge).toEqual({ refundedAmount: '0.50', status: 'partially_refunded' });
    const slashed = await t.api.graphql(
      'mutation($slug: String!, $id: ID!) { slashPublisherCharge(slug: $slug, chargeId: $id, input: { amount: "0.10", reason: "late" }) }',
      { slug: s.slug, id: chargeId },
      { token: s.token },
    );
    expect(slashed.body.data.slashPublisherCharge).toBe(true);
    const paidOut = await t.api.graphql(
      'mutation($slug: String!) { createPublisherPayout(slug: $slug, input: { amount: "0.20" }) { id status } }',
      { slug: s.slug },
      { token: s.token },
    );
    expect(paidOut.body.data.createPublisherPayout.status).toBe('pending');
    const read = await t.api.graphql(
      'query($slug: String!, $charge: ID!, $payout: ID!) { publisherCharge(slug: $slug, chargeId: $charge) { slashedAmount } publisherPayout(slug: $slug, payoutId: $payout) { amount } publisherEarnings(slug: $slug) { pendingPayouts } }',
      { slug: s.slug, charge: chargeId, payout: paidOut.body.data.createPublisherPayout.id },
      { token: s.token },
    );
    expect(read.body.data).toEqual({ publisherCharge: { slashedAmount: '0.10' }, publisherPayout: { amount: '0.20' }, publisherEarnings: { pendingPayouts: '0.20' } });
    const listed = await t.api.graphql('{ spendingAllowances { id spentThisMonth } }', {}, { token: payer.api_key });
    expect(listed.body.data.spendingAllowances).toEqual([{ id: granted.body.data.grantSpendingAllowance.id, spentThisMonth: '1.40' }]);
    const revoked = await t.api.graphql('mutation($id: ID!) { revokeSpendingAllowance(id: $id) { active } }', { id: granted.body.data.grantSpendingAllowance.id }, { token: payer.api_key });
    expect(revoked.body.data.revokeSpendingAllowance.active).toBe(false);
  });
});

describe('Idempotency-Key after a crash', () => {
  it('a key whose first attempt died unanswered is 409 idempotency_key_in_use for a while, then taken over without charging twice', async () => {
    const s = await seller();
    const payer = await payerWithCredits(s, '5.00');
    const key = `charge-${randomUUID()}`;
    const body = { payer_id: payer.id, amount: '1.00', description: 'crash' };
    const first = await charge(s, body, { 'idempotency-key': key });
    // The process died after the charge committed, before its answer was stored.
    const forget = (age: string) =>
      emOf(t).execute(`update billing_idempotent_request set response = null, created_at = now() - ?::interval where key = ?`, [age, key]);
    await forget('0 seconds');
    const busy = await charge(s, body, { 'idempotency-key': key });
    expect([busy.status, busy.body.error.code]).toEqual([409, 'idempotency_key_in_use']);
    await forget('10 minutes');
    const retried = await charge(s, body, { 'idempotency-key': key });
    expect([retried.status, retried.body.data.id]).toEqual([200, first.body.data.id]);
    expect(await micros(prepaidAccountId(payer.id, s.publisherId))).toBe(4_000_000n);
    const refundKey = { 'idempotency-key': `refund-${randomUUID()}` };
    await t.api.post(`/billing/publishers/${s.slug}/charges/${first.body.data.id}/refund`, { amount: '0.25' }, { token: s.token, headers: refundKey });
    await emOf(t).execute(`update billing_idempotent_request set response = null, created_at = now() - interval '10 minutes' where key = ?`, [refundKey['idempotency-key']]);
    const refundAgain = await t.api.post(`/billing/publishers/${s.slug}/charges/${first.body.data.id}/refund`, { amount: '0.25' }, { token: s.token, headers: refundKey });
    expect(refundAgain.body.data.refunded_amount).toBe('0.25');
    expect(await micros(prepaidAccountId(payer.id, s.publisherId))).toBe(4_250_000n);
  });
});

describe('authorization on publishers’ billing', () => {
  it('401 without a credential, 404 for an unknown publisher or another publisher’s ids, 403 for anyone not its owner or admin (another organization, a plain member)', async () => {
    const s = await seller();
    const other = await seller();
    const payer = await payerWithCredits(s, '3.00');
    const info = await charged(s, payer.id, '1.00');
    const payout = (await t.api.post(`/billing/publishers/${s.slug}/payouts`, { amount: '0.10' }, { token: s.token })).body.data;
    const stranger = await signUpVerified(t);
    const member = await signUpVerified(t);
    const invited = await t.api.graphql(
      'mutation($input: InviteMemberInput!) { inviteToOrganization(input: $input) { id } }',
      { input: { organizationId: s.owner.organizationId, email: member.email } },
      { token: s.token },
    );
    expect(invited.body.errors).toBeUndefined();
    const inviteToken = await t.mailbox.waitForToken(member.email, 'accept-invite');
    expect((await t.api.post('/auth/accept-invite', { token: inviteToken }, { token: member.accessToken })).status).toBe(200);

    const routes: [string, string, unknown][] = [
      ['POST', `/billing/publishers/${s.slug}/charges`, { payer_id: payer.id, amount: '0.10' }],
      ['GET', `/billing/publishers/${s.slug}/charges/${info.id}`, undefined],
      ['POST', `/billing/publishers/${s.slug}/charges/${info.id}/refund`, { amount: '0.10' }],
      ['POST', `/billing/publishers/${s.slug}/charges/${info.id}/slash`, { amount: '0.10', reason: 'x' }],
      ['POST', `/billing/publishers/${s.slug}/payouts`, { amount: '0.10' }],
      ['GET', `/billing/publishers/${s.slug}/payouts/${payout.id}`, undefined],
      ['GET', `/billing/publishers/${s.slug}/earnings`, undefined],
    ];
    for (const [method, path, body] of routes) {
      expect([path, (await t.api.request(method, path, body)).status]).toEqual([path, 401]);
      for (const caller of [stranger, member, other.owner]) {
        const refused = await t.api.request(method, path, body, { token: caller.accessToken });
        expect([path, refused.status, refused.body.error.code]).toEqual([path, 403, 'publisher_manager_required']);
      }
      const unknown = await t.api.request(method, path.replace(s.slug, 'no-such-publisher'), body, { token: s.token });
      expect([path, unknown.status]).toEqual([path, 404]);
    }
    // The other publisher's owner naming this publisher's charge or payout under their own slug: 404.
    expect((await t.api.get(`/billing/publishers/${other.slug}/charges/${info.id}`, { token: other.token })).status).toBe(404);
    expect((await t.api.post(`/billing/publishers/${other.slug}/charges/${info.id}/refund`, {}, { token: other.token })).status).toBe(404);
    expect((await t.api.get(`/billing/publishers/${other.slug}/payouts/${payout.id}`, { token: other.token })).status).toBe(404);
    // Charges, refunds and payouts are the publisher's own: the operator may read and slash, not charge.
    const operatorCharge = await t.api.post(`/billing/publishers/${s.slug}/charges`, { payer_id: payer.id, amount: '0.10' }, asOperator);
    expect([operatorCharge.status, operatorCharge.body.error.code]).toEqual([403, 'publisher_manager_required']);
    expect((await t.api.get(`/billing/publishers/${s.slug}/charges/${info.id}`, asOperator)).status).toBe(200);
  });
});
