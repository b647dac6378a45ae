import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Wallet } from 'ethers';
import { registerAgent } from '../support/accounts.js';
import { fundPrepaid, fundWallet } from '../support/funding.js';
import { checkLedgerAfterEach } from '../support/wallet.js';
import { startX402TestBed, type X402TestBed } from '../support/x402-test-bed.js';
import type { FakeFacilitator } from '../fakes/facilitator.js';
import type { FakeUpstream } from '../fakes/upstream-server.js';
import type { TestPlatform } from '../support/platform.js';
import { createX402Publisher, decodeHeaderJson, publisherPayableOf, signPaymentHeader, x402PaymentOf } from '../support/x402.js';

const PUBLISHER_WALLET = Wallet.createRandom().address;
const payer = Wallet.createRandom();
let bed: X402TestBed;
let upstream: FakeUpstream;
let facilitator: FakeFacilitator;
let t: TestPlatform;
let ownerToken: string;

beforeAll(async () => {
  bed = await startX402TestBed();
  ({ t, upstream, facilitator, ownerToken } = bed);
});
afterAll(() => bed.close());
checkLedgerAfterEach(() => t);

/** 0.011 USD a call (11000 atomic units), payable on-chain to the publisher's own wallet. */
const x402Publisher = () => createX402Publisher(t, ownerToken, upstream.url, { wallet_address: PUBLISHER_WALLET, wallet_network_id: 'eip155:84532' });

/** An agent with `wallet` in its wallet (none when null) and `prepaid` of credits with the publisher. */
async function callerWith(publisherId: string, wallet: string | null, prepaid: string) {
  const agent = await registerAgent(t);
  if (wallet) await fundWallet(t, agent.id, wallet);
  await fundPrepaid(t, agent.id, publisherId, prepaid);
  return agent;
}

const walletOf = async (key: string) => (await t.api.get('/wallet/balance', { token: key })).body.data;
const chargesOf = async (key: string) =>
  (await t.api.get('/wallet/transactions', { token: key })).body.data.filter((tx: { type: string }) => tx.type === 'charge');
const reached = (path: string) => upstream.requests.filter((request) => request.path === path).length;
const emOf = () => t.platform.services.orm.em.fork() as EntityManager;

/** Every ledger account of the caller and of the publisher that holds anything, posted and pending. */
async function moneyOf(userId: string, publisherId: string) {
  return emOf().execute(
    `select id, kind, debits_posted::text, credits_posted::text, debits_pending::text, credits_pending::text from ledger_account
      where (owner_id = ? or publisher_id = ?) and (debits_posted, credits_posted, debits_pending, credits_pending) <> (0, 0, 0, 0)
      order by id`,
    [userId, publisherId],
  );
}

/** Holds still pending on the caller's accounts or towards the publisher. */
async function pendingHoldsOf(userId: string, publisherId: string) {
  return emOf().execute(
    `select t.id from ledger_transfer t join ledger_account a on a.id in (t.debit_account_id, t.credit_account_id)
      where t.type = 'reserve' and t.state = 'pending' and (a.owner_id = ? or a.publisher_id = ?)`,
    [userId, publisherId],
  );
}

describe('x402 per request, with prepaid credits that cover only part of the call', () => {
  it.each([
    ['a wallet that cannot cover the rest', '0.003'],
    ['no wallet money at all', null],
  ])('with %s, the caller gets this call’s on-chain payment requirements (the whole price), and nothing moves', async (_label, wallet) => {
    const pub = await x402Publisher();
    const agent = await callerWith(pub.id, wallet, '0.005');
    const before = await moneyOf(agent.id, pub.id);
    expect(before).toContainEqual(expect.objectContaining({ kind: 'prepaid', credits_posted: '5000', debits_pending: '0' }));
    const facilitatorCalls = facilitator.calls.length;

    const response = await t.api.get(`/publishers/${pub.slug}/echo/short`, { token: agent.api_key });

    expect(response.status).toBe(402);
    expect(response.headers.get('x-charge-id')).toBeNull();
    expect(response.body).toMatchObject({
      x402Version: 1,
      error: 'insufficient_funds',
      accepts: [{ scheme: 'exact', network: 'base-sepolia', maxAmountRequired: '11000', payTo: PUBLISHER_WALLET, resource: `http://app.test/publishers/${pub.slug}/echo/short` }],
    });
    expect(decodeHeaderJson(response.headers.get('payment-required'))).toMatchObject({ x402Version: 2, accepts: [{ network: 'eip155:84532', amount: '11000', payTo: PUBLISHER_WALLET }] });
    expect(reached('/echo/short')).toBe(0);
    expect(facilitator.calls.length).toBe(facilitatorCalls);
    expect(await walletOf(agent.api_key)).toMatchObject({
      balance: wallet ?? '0.00',
      pending: '0.00',
      prepaid_credits: [{ publisher_id: pub.id, balance: '0.005' }],
    });
    expect(await pendingHoldsOf(agent.id, pub.id)).toEqual([]);
    expect(await moneyOf(agent.id, pub.id)).toEqual(before);
    expect(await chargesOf(agent.api_key)).toEqual([]);
    expect(await publisherPayableOf(t, pub.id)).toBe('0');
  });

  it('the same caller then pays that call on-chain with the requirements it was given: answered, settled, and its prepaid credits and wallet are left as they were', async () => {
    const pub = await x402Publisher();
    const agent = await callerWith(pub.id, '0.003', '0.005');
    const refused = await t.api.get(`/publishers/${pub.slug}/echo/onchain`, { token: agent.api_key });
    expect(refused.status).toBe(402);
    const [terms] = refused.body.accepts;
    const header = await signPaymentHeader(payer, { to: terms.payTo, value: BigInt(terms.maxAmountRequired) });
    const before = await walletOf(agent.api_key);
    const settles = facilitator.calls.filter((call) => call.path === '/settle').length;

    const paid = await t.api.get(`/publishers/${pub.slug}/echo/onchain`, { token: agent.api_key, headers: { 'X-PAYMENT': header } });

    expect([paid.status, paid.body.path]).toEqual([200, '/echo/onchain']);
    expect(decodeHeaderJson(paid.headers.get('x-payment-response'))).toMatchObject({ success: true, payer: payer.address });
    expect([paid.headers.get('x-charge-id'), paid.headers.get('x-charge-amount')]).toEqual([null, null]);
    expect(facilitator.calls.filter((call) => call.path === '/settle').length).toBe(settles + 1);
    expect(reached('/echo/onchain')).toBe(1);
    expect(await x402PaymentOf(t, pub.slug, '/echo/onchain')).toMatchObject({ status: 'settled' });
    expect(before).toMatchObject({ balance: '0.003', pending: '0.00', prepaid_credits: [{ balance: '0.005' }] });
    expect(await walletOf(agent.api_key)).toEqual(before);
    expect(await pendingHoldsOf(agent.id, pub.id)).toEqual([]);
    expect(await chargesOf(agent.api_key)).toEqual([]);
    // Paid to the publisher's own wallet: it holds price and fee, and owes the platform the fee.
    expect(await publisherPayableOf(t, pub.id)).toBe('-1000');
  });

  it.each([
    ['more than covers', '1.00', '0.994'],
    ['exactly covers', '0.006', '0.00'],
  ])('a wallet that %s the rest pays it: the prepaid credits are spent to zero first, the rest from the wallet, one charge', async (_label, wallet, remaining) => {
    const pub = await x402Publisher();
    const agent = await callerWith(pub.id, wallet, '0.005');
    const facilitatorCalls = facilitator.calls.length;

    const response = await t.api.get(`/publishers/${pub.slug}/echo/split`, { token: agent.api_key });

    expect([response.status, response.body.path]).toEqual([200, '/echo/split']);
    expect([response.headers.get('x-charge-amount'), response.headers.get('x-balance-remaining')]).toEqual(['0.011', remaining]);
    expect(response.headers.get('x-charge-id')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(response.headers.get('x-payment-response')).toBeNull();
    expect(facilitator.calls.length).toBe(facilitatorCalls);
    expect(await x402PaymentOf(t, pub.slug, '/echo/split')).toBeUndefined();
    expect(await walletOf(agent.api_key)).toMatchObject({ balance: remaining, pending: '0.00', prepaid_credits: [{ publisher_id: pub.id, balance: '0.00' }] });
    expect(await pendingHoldsOf(agent.id, pub.id)).toEqual([]);
    const charges = await chargesOf(agent.api_key);
    expect(charges.map((tx: { amount: string }) => tx.amount).sort()).toEqual(['-0.005', '-0.006']);
    // The one charge id names the first part paid (the prepaid credits).
    expect(charges.find((tx: { amount: string }) => tx.amount === '-0.005').id).toBe(response.headers.get('x-charge-id'));
    expect(await publisherPayableOf(t, pub.id)).toBe('10000');
  });
});
