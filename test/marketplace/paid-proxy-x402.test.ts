import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Wallet } from 'ethers';
import type { FakeFacilitator } from '../fakes/facilitator.js';
import type { FakeUpstream } from '../fakes/upstream-server.js';
import type { TestPlatform } from '../support/platform.js';
import { registerAgent } from '../support/accounts.js';
import { fundWallet } from '../support/funding.js';
import { checkLedgerAfterEach } from '../support/wallet.js';
import { startX402TestBed, type X402TestBed } from '../support/x402-test-bed.js';
import { createX402Publisher, decodeHeaderJson, publisherPayableOf, signPaymentHeader, withX402BookingsRefused, x402PaymentOf } from '../support/x402.js';
import { usageCountersOf } from '../../subgraphs/marketplace/proxy/usage-counters-of.js';
import { bookUnbookedPayments, listUnsettledPayments, resolveUnknownPayment, type PaymentKey } from '../../shared/x402/index.js';

const PUBLISHER_WALLET = Wallet.createRandom().address;
const payer = Wallet.createRandom();
let bed: X402TestBed;
let upstream: FakeUpstream;
let facilitator: FakeFacilitator;
let t: TestPlatform;
let ownerToken: string;
let PLATFORM_PAY_TO: string;

beforeAll(async () => {
  bed = await startX402TestBed();
  ({ t, upstream, facilitator, ownerToken, platformPayTo: PLATFORM_PAY_TO } = bed);
});
afterAll(() => bed.close());
checkLedgerAfterEach(() => t);

/** 0.011 USD a call (11000 atomic units), payable on-chain to the publisher's own wallet unless `overrides` say otherwise. */
const x402Publisher = (overrides: Record<string, unknown> = {}) =>
  createX402Publisher(t, ownerToken, upstream.url, {
    wallet_address: PUBLISHER_WALLET,
    wallet_network_id: 'eip155:84532',
    endpoints: [
      { method: 'GET', path: '/echo/{thing}', description: 'Echo' },
      { method: 'GET', path: '/fail', description: 'Fails' },
    ],
    ...overrides,
  });

const paymentOf = (slug: string, path: string) => x402PaymentOf(t, slug, path);
const payableOf = (publisherId: string) => publisherPayableOf(t, publisherId);

const reached = (path: string) => upstream.requests.filter((request) => request.path === path).length;

describe('x402 per request', () => {
  it('answers a caller without a wallet with this call’s payment requirements, before any upstream byte', async () => {
    const pub = await x402Publisher();
    const response = await t.api.get(`/publishers/${pub.slug}/echo/anon`);
    expect(response.status).toBe(402);
    expect(response.body).toMatchObject({
      x402Version: 1,
      error: 'invalid_payment',
      accepts: [{ scheme: 'exact', network: 'base-sepolia', maxAmountRequired: '11000', payTo: PUBLISHER_WALLET, resource: `http://app.test/publishers/${pub.slug}/echo/anon` }],
    });
    expect(decodeHeaderJson(response.headers.get('payment-required'))).toMatchObject({ x402Version: 2, accepts: [{ network: 'eip155:84532', amount: '11000' }] });
    expect(reached('/echo/anon')).toBe(0);
  });

  it('asks for an authorization that outlives the longest call (its settlement waits for the answer), and accepts one signed for that long', async () => {
    const pub = await x402Publisher();
    const asked = Math.max(300, t.platform.services.config.proxy.longestCallSeconds + 60);
    expect(asked).toBeGreaterThan(300);
    const response = await t.api.get(`/publishers/${pub.slug}/echo/long-anon`);
    expect(response.body.accepts[0].maxTimeoutSeconds).toBe(asked);
    expect(decodeHeaderJson(response.headers.get('payment-required')).accepts[0].maxTimeoutSeconds).toBe(asked);
    const header = await signPaymentHeader(payer, { to: PUBLISHER_WALLET, value: 11_000n, validBefore: Math.floor(Date.now() / 1000) + asked });
    expect((await t.api.get(`/publishers/${pub.slug}/echo/long`, { headers: { 'X-PAYMENT': header } })).status).toBe(200);
  });

  it('a call that costs nothing has nothing to pay on-chain: without a credential it is 401 and never forwarded', async () => {
    const pub = await x402Publisher({ pricing: [] });
    const response = await t.api.get(`/publishers/${pub.slug}/echo/free-anon`);
    expect([response.status, response.body.error.code]).toEqual([401, 'unauthorized']);
    expect(reached('/echo/free-anon')).toBe(0);
  });

  it('a signed payment pays the call: verified, forwarded, then settled, with the receipt in headers', async () => {
    const pub = await x402Publisher();
    const header = await signPaymentHeader(payer, { to: PUBLISHER_WALLET, value: 11_000n });
    const settles = facilitator.calls.filter((call) => call.path === '/settle').length;
    const response = await t.api.get(`/publishers/${pub.slug}/echo/paid`, { headers: { 'X-PAYMENT': header } });
    expect(response.status).toBe(200);
    expect(response.body.path).toBe('/echo/paid');
    expect(response.body.headers['x-payment']).toBeUndefined();
    expect(decodeHeaderJson(response.headers.get('x-payment-response'))).toMatchObject({ success: true, payer: payer.address });
    expect(facilitator.calls.filter((call) => call.path === '/settle').length).toBe(settles + 1);

    const replay = await t.api.get(`/publishers/${pub.slug}/echo/paid`, { headers: { 'X-PAYMENT': header } });
    expect(replay.status).toBe(402);
    expect(replay.body.error).toBe('duplicate_settlement');
    expect(reached('/echo/paid')).toBe(1);
  });

  it('refuses a payment for the wrong amount, and a version 2 signature works like version 1', async () => {
    const pub = await x402Publisher();
    const short = await signPaymentHeader(payer, { to: PUBLISHER_WALLET, value: 10_000n });
    const refused = await t.api.get(`/publishers/${pub.slug}/echo/short`, { headers: { 'X-PAYMENT': short } });
    expect(refused.status).toBe(402);
    expect(reached('/echo/short')).toBe(0);
    const v2 = await signPaymentHeader(payer, { to: PUBLISHER_WALLET, value: 11_000n, version: 2 });
    const paid = await t.api.get(`/publishers/${pub.slug}/echo/v2`, { headers: { 'PAYMENT-SIGNATURE': v2 } });
    expect(paid.status).toBe(200);
    expect(paid.headers.get('payment-response')).not.toBeNull();
  });

  it('does not settle when the upstream fails', async () => {
    const pub = await x402Publisher();
    const header = await signPaymentHeader(payer, { to: PUBLISHER_WALLET, value: 11_000n });
    const settles = facilitator.calls.filter((call) => call.path === '/settle').length;
    const response = await t.api.get(`/publishers/${pub.slug}/fail`, { headers: { 'X-PAYMENT': header } });
    expect(response.status).toBe(500);
    expect(response.headers.get('x-payment-response')).toBeNull();
    expect(facilitator.calls.filter((call) => call.path === '/settle').length).toBe(settles);
  });

  it('a tool call is paid like any call: asked for on-chain payment without a wallet, settled with a receipt once the tool answered, never settled when it fails', async () => {
    const pub = await x402Publisher({
      api_url: null,
      mcp_endpoint: `${upstream.url}/mcp`,
      publisher_category: 'compute',
      compute_type: 'function',
      integration_type: null,
      endpoints: [],
    });
    const asked = await t.api.post(`/publishers/${pub.slug}/add`, { a: 2, b: 3 });
    expect(asked.status).toBe(402);
    expect(asked.body).toMatchObject({
      x402Version: 1,
      error: 'invalid_payment',
      accepts: [{ maxAmountRequired: '11000', payTo: PUBLISHER_WALLET, resource: `http://app.test/publishers/${pub.slug}/add` }],
    });
    const settles = () => facilitator.calls.filter((call) => call.path === '/settle').length;
    const before = settles();
    const paid = await t.api.post(`/publishers/${pub.slug}/add`, { a: 2, b: 3 }, { headers: { 'X-PAYMENT': await signPaymentHeader(payer, { to: PUBLISHER_WALLET, value: 11_000n }) } });
    expect(paid.status).toBe(200);
    expect(paid.body.data.content).toEqual([{ type: 'text', text: '5' }]);
    expect(decodeHeaderJson(paid.headers.get('x-payment-response'))).toMatchObject({ success: true, payer: payer.address });
    expect(settles()).toBe(before + 1);
    expect((await paymentOf(pub.slug, '/add')).status).toBe('settled');

    const failed = await t.api.post(`/publishers/${pub.slug}/fail`, {}, { headers: { 'X-PAYMENT': await signPaymentHeader(payer, { to: PUBLISHER_WALLET, value: 11_000n }) } });
    expect([failed.status, failed.body.error?.code]).toEqual([502, 'tool_failed']);
    expect(failed.headers.get('x-payment-response')).toBeNull();
    expect(settles()).toBe(before + 1);
    expect((await paymentOf(pub.slug, '/fail')).status).toBe('failed');
  });

  it('a caller with a funded wallet is charged from it; an empty wallet gets the on-chain instructions', async () => {
    const pub = await x402Publisher();
    const funded = await registerAgent(t);
    await fundWallet(t, funded.id, '1.00');
    const charged = await t.api.get(`/publishers/${pub.slug}/echo/wallet`, { token: funded.api_key });
    expect(charged.headers.get('x-charge-amount')).toBe('0.011');
    const empty = await registerAgent(t);
    const instructions = await t.api.get(`/publishers/${pub.slug}/echo/wallet`, { token: empty.api_key });
    expect(instructions.status).toBe(402);
    expect(instructions.body).toMatchObject({ x402Version: 1, error: 'insufficient_funds' });
  });

  it('paid to the platform (publisher without a wallet), the ledger books the price for the publisher and the fee for the platform', async () => {
    const pub = await x402Publisher({ wallet_address: '', wallet_network_id: '' });
    const header = await signPaymentHeader(payer, { to: PLATFORM_PAY_TO, value: 11_000n });
    const response = await t.api.get(`/publishers/${pub.slug}/echo/platform`, { headers: { 'X-PAYMENT': header } });
    expect(response.status).toBe(200);
    expect(await payableOf(pub.id)).toBe('10000');
  });

  it.each([
    ['once', 1, 'settled', '10000'],
    ['every time', 1000, 'settled_unbooked', '0'],
  ])('a payment settled on-chain whose booking fails %s still answers the caller, and is kept with what it needs to be booked', async (_label, failures, status, booked) => {
    const pub = await x402Publisher({ wallet_address: '', wallet_network_id: '' });
    const header = await signPaymentHeader(payer, { to: PLATFORM_PAY_TO, value: 11_000n });
    const em = t.platform.services.orm.em.fork() as EntityManager;
    const response = await withX402BookingsRefused(em, failures, () => t.api.get(`/publishers/${pub.slug}/echo/unbooked`, { headers: { 'X-PAYMENT': header } }));
    expect([response.status, response.body.path]).toEqual([200, '/echo/unbooked']);
    expect(decodeHeaderJson(response.headers.get('x-payment-response'))).toMatchObject({ success: true, payer: payer.address });
    const payment = await paymentOf(pub.slug, '/echo/unbooked');
    expect(payment.status).toBe(status);
    expect(payment.transaction).toMatch(/^0x/);
    if (status === 'settled_unbooked') {
      expect(payment.unbooked_transfers).toEqual([
        expect.objectContaining({ amount: '10000', kind: 'charge', idempotencyKey: expect.stringMatching(/:price$/), credit: expect.objectContaining({ kind: 'publisher_payable', publisherId: pub.id }) }),
        expect.objectContaining({ amount: '1000', kind: 'gateway_fee', idempotencyKey: expect.stringMatching(/:fee$/), credit: expect.objectContaining({ kind: 'platform_revenue' }) }),
      ]);
    } else {
      expect(payment.unbooked_transfers).toBeNull();
    }
    expect(await payableOf(pub.id)).toBe(booked);
  });

  it('the sweep books a payment left settled_unbooked from the plan it kept, exactly once even when two sweeps race, and tries again while the database still refuses', async () => {
    const pub = await x402Publisher({ wallet_address: '', wallet_network_id: '' });
    const header = await signPaymentHeader(payer, { to: PLATFORM_PAY_TO, value: 11_000n });
    const em = t.platform.services.orm.em.fork() as EntityManager;
    const bookkeeper = t.platform.services;
    await bookUnbookedPayments(em, bookkeeper); // what earlier tests left unbooked, so the counts below are this payment's
    const stillRefused = await withX402BookingsRefused(em, 1000, async () => {
      const response = await t.api.get(`/publishers/${pub.slug}/echo/swept`, { headers: { 'X-PAYMENT': header } });
      expect(response.status).toBe(200);
      return bookUnbookedPayments(em, bookkeeper);
    });
    expect(stillRefused).toEqual({ booked: 0, failed: 1 });
    expect(await paymentOf(pub.slug, '/echo/swept')).toMatchObject({ status: 'settled_unbooked' });
    await usageCountersOf(t.platform.services).flush();
    expect((await t.api.get(`/publishers/${pub.slug}`)).body.data).toMatchObject({ total_queries: 1, total_revenue_atomic: 0 });
    const sweeps = await Promise.all([bookUnbookedPayments(em.fork(), bookkeeper), bookUnbookedPayments(em.fork(), bookkeeper)]);
    expect(sweeps.map((sweep) => sweep.booked).sort()).toEqual([0, 1]);
    const payment = await paymentOf(pub.slug, '/echo/swept');
    expect(payment).toMatchObject({ status: 'settled', unbooked_transfers: null });
    expect(await payableOf(pub.id)).toBe('10000');
    expect((await t.api.get(`/publishers/${pub.slug}`)).body.data).toMatchObject({ total_queries: 1, total_revenue_atomic: 10000 });
    const references = await em.execute(`select distinct reference from ledger_transfer where idempotency_key like ?`, [`x402-call:%:${payment.nonce}:%`]);
    expect(references).toEqual([{ reference: payment.transaction }]);
    expect(await bookUnbookedPayments(em, bookkeeper)).toEqual({ booked: 0, failed: 0 });
  });

  it('a settle_unknown payment found on-chain is booked with its transaction; one that never went on-chain is failed and books nothing', async () => {
    const pub = await x402Publisher({ wallet_address: '', wallet_network_id: '' });
    const bookkeeper = t.platform.services;
    const em = t.platform.services.orm.em.fork() as EntityManager;
    await facilitator.withUnclearSettlement(async () => {
      for (const path of ['/echo/found', '/echo/lost']) {
        const header = await signPaymentHeader(payer, { to: PLATFORM_PAY_TO, value: 11_000n });
        expect((await t.api.get(`/publishers/${pub.slug}${path}`, { headers: { 'X-PAYMENT': header } })).status).toBe(200);
      }
    });
    const found = await paymentOf(pub.slug, '/echo/found');
    const lost = await paymentOf(pub.slug, '/echo/lost');
    const unsettled = await listUnsettledPayments(em, t.platform.services.config);
    expect(unsettled.filter((listed) => [found.nonce, lost.nonce].includes(listed.nonce)).map((listed) => listed.status)).toEqual(['settle_unknown', 'settle_unknown']);
    const transaction = `0x${'ab'.repeat(32)}`;
    // A payer address as an operator might paste it, in its checksummed spelling.
    const foundKey = { network: found.network, payer: payer.address, nonce: found.nonce };
    expect(await resolveUnknownPayment(em, foundKey, { settled: true, transaction }, bookkeeper)).toBe('booked');
    expect(await paymentOf(pub.slug, '/echo/found')).toMatchObject({ status: 'settled', transaction, unbooked_transfers: null });
    expect(await payableOf(pub.id)).toBe('10000');
    const references = await em.execute(`select distinct reference from ledger_transfer where idempotency_key like ?`, [`x402-call:%:${found.nonce}:%`]);
    expect(references).toEqual([{ reference: transaction }]);
    expect(await resolveUnknownPayment(em, foundKey, { settled: false }, bookkeeper)).toBe('not_found');
    // Until its authorization has expired, an unanswered settlement may still execute: it cannot be failed yet.
    const lostKey = { network: lost.network, payer: lost.payer, nonce: lost.nonce.toUpperCase().replace('0X', '0x') };
    expect(await resolveUnknownPayment(em, lostKey, { settled: false }, bookkeeper)).toBe('not_expired');
    expect(await paymentOf(pub.slug, '/echo/lost')).toMatchObject({ status: 'settle_unknown' });
    await em.execute(`update x402_payment set valid_before = now() - interval '10 minutes' where nonce = ?`, [lost.nonce]);
    expect(await resolveUnknownPayment(em, lostKey, { settled: false }, bookkeeper)).toBe('failed');
    const failed = await paymentOf(pub.slug, '/echo/lost');
    expect(failed.status).toBe('failed');
    expect(failed.unbooked_transfers).toHaveLength(2);
    expect(await payableOf(pub.id)).toBe('10000');
    await usageCountersOf(t.platform.services).flush();
    expect((await t.api.get(`/publishers/${pub.slug}`)).body.data).toMatchObject({ total_queries: 2, total_revenue_atomic: 10000 });
  });

  it('a call paid to the publisher’s own wallet leaves the publisher owing the platform its fee', async () => {
    const direct = await x402Publisher();
    const header = await signPaymentHeader(payer, { to: PUBLISHER_WALLET, value: 11_000n });
    expect((await t.api.get(`/publishers/${direct.slug}/echo/owed`, { headers: { 'X-PAYMENT': header } })).status).toBe(200);
    expect(await payableOf(direct.id)).toBe('-1000');
    const em = t.platform.services.orm.em.fork() as EntityManager;
    const { nonce } = await paymentOf(direct.slug, '/echo/owed');
    const booked = await em.execute(`select kind, amount::text from ledger_transfer where idempotency_key like ?`, [`x402-call:%:${nonce}:%`]);
    expect(booked).toEqual([{ kind: 'gateway_fee', amount: '1000' }]);
  });

  it('a call paid to the publisher’s own wallet and found on-chain later counts its revenue then', async () => {
    const pub = await x402Publisher();
    const em = t.platform.services.orm.em.fork() as EntityManager;
    const header = await signPaymentHeader(payer, { to: PUBLISHER_WALLET, value: 11_000n });
    const response = await facilitator.withUnclearSettlement(() => t.api.get(`/publishers/${pub.slug}/echo/direct`, { headers: { 'X-PAYMENT': header } }));
    expect(response.status).toBe(200);
    await usageCountersOf(t.platform.services).flush();
    expect((await t.api.get(`/publishers/${pub.slug}`)).body.data).toMatchObject({ total_queries: 1, total_revenue_atomic: 0 });
    const payment = await paymentOf(pub.slug, '/echo/direct');
    expect(payment).toMatchObject({
      status: 'settle_unknown',
      unbooked_transfers: [expect.objectContaining({ kind: 'gateway_fee', amount: '1000', debit: expect.objectContaining({ kind: 'publisher_payable', publisherId: pub.id }) })],
      publisher_id: pub.id,
      publisher_share: '10000',
    });
    const outcome = { settled: true as const, transaction: `0x${'12'.repeat(32)}` };
    expect(await resolveUnknownPayment(em, payment as PaymentKey, outcome, t.platform.services)).toBe('booked');
    expect((await t.api.get(`/publishers/${pub.slug}`)).body.data).toMatchObject({ total_queries: 1, total_revenue_atomic: 10000 });
    // The publisher holds price and fee on-chain: it owes the platform the fee.
    expect(await payableOf(pub.id)).toBe('-1000');
  });

  it.each([
    ['an HTML error page', 'html-502'],
    ['a gateway timeout in JSON', 'json-504'],
    ['an answer without success', 'no-verdict'],
  ] as const)('a settlement answered with %s may have gone on-chain: the caller gets its answer, the payment is kept as settle_unknown, never failed', async (_label, how) => {
    const pub = await x402Publisher({ wallet_address: '', wallet_network_id: '' });
    const header = await signPaymentHeader(payer, { to: PLATFORM_PAY_TO, value: 11_000n });
    const response = await facilitator.withUnclearSettlement(() => t.api.get(`/publishers/${pub.slug}/echo/unclear`, { headers: { 'X-PAYMENT': header } }), how);
    expect([response.status, response.body.path]).toEqual([200, '/echo/unclear']);
    expect(response.headers.get('x-payment-response')).toBeNull();
    const payment = await paymentOf(pub.slug, '/echo/unclear');
    expect(payment.status).toBe('settle_unknown');
    expect(payment.unbooked_transfers.map((planned: { amount: string }) => planned.amount)).toEqual(['10000', '1000']);
    // The same authorization is still refused: it may already have paid.
    const replay = await t.api.get(`/publishers/${pub.slug}/echo/unclear`, { headers: { 'X-PAYMENT': header } });
    expect([replay.status, replay.body.error]).toEqual([402, 'duplicate_settlement']);
  });
});
