import type { EntityManager } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes, randomUUID } from 'node:crypto';
import { Wallet } from 'ethers';
import { registerAgent, signUpVerified } from '../support/accounts.js';
import { createPublisher } from '../support/publishers.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { checkLedgerAfterEach } from '../support/wallet.js';
import { decodeHeaderJson, publisherPayableOf, signPaymentHeader, withX402BookingsRefused } from '../support/x402.js';
import { withInsertsRefused } from '../support/database-faults.js';
import { bookUnbookedPayments, resolveUnknownPayment, type PaymentKey } from '../../shared/x402/index.js';
import { FakeFacilitator } from '../fakes/facilitator.js';

const PLATFORM_PAY_TO = Wallet.createRandom().address;
const payer = Wallet.createRandom();
let t: TestPlatform;
let facilitator: FakeFacilitator;
/** A catalogued publisher paid at the platform's address. */
let publisherId: string;

beforeAll(async () => {
  facilitator = await new FakeFacilitator().start();
  t = await startTestPlatform({ X402_PAY_TO: PLATFORM_PAY_TO, X402_NETWORK: 'eip155:84532', X402_FACILITATOR_URL: facilitator.url });
  const owner = await signUpVerified(t);
  publisherId = (await createPublisher(t, owner.accessToken, { wallet_address: PLATFORM_PAY_TO, wallet_network_id: 'eip155:84532' })).id;
});
afterAll(async () => {
  await t?.close();
  await facilitator?.close();
});
checkLedgerAfterEach(() => t);


function deposit(token: string, body: Record<string, unknown>, paymentHeader?: string, headerName = 'X-PAYMENT') {
  return t.api.post('/wallet/deposit/crypto', body, { token, headers: paymentHeader ? { [headerName]: paymentHeader } : {} });
}

/** A deposit the facilitator answers unclearly: 502 settlement_unknown, the payment kept as settle_unknown. */
async function depositUnclear(token: string, amount: string, value: bigint) {
  const header = await signPaymentHeader(payer, { to: PLATFORM_PAY_TO, value });
  return facilitator.withUnclearSettlement(() => deposit(token, { amount, publisher_id: publisherId }, header));
}

describe('on-chain deposit (x402)', () => {
  it('a body over its 64 kB limit answers 413 payload_too_large naming that limit', async () => {
    const agent = await registerAgent(t);
    const response = await deposit(agent.api_key, { amount: '1.50', publisher_id: publisherId, padding: 'x'.repeat(70_000) });
    expect([response.status, response.body.error.code]).toEqual([413, 'payload_too_large']);
    expect(response.body.error.message).toBe('Request body exceeds 65536 bytes');
  });

  it('without a payment header answers 402 with v1 requirements in the body and v2 in PAYMENT-REQUIRED', async () => {
    const agent = await registerAgent(t);
    const response = await deposit(agent.api_key, { amount: '1.50', publisher_id: publisherId });
    expect(response.status).toBe(402);
    expect(response.body).toEqual({
      x402Version: 1,
      error: 'invalid_payment',
      accepts: [
        {
          scheme: 'exact',
          network: 'base-sepolia',
          maxAmountRequired: '1500000',
          resource: 'http://app.test/wallet/deposit/crypto',
          description: expect.any(String),
          mimeType: 'application/json',
          payTo: PLATFORM_PAY_TO,
          maxTimeoutSeconds: 300,
          asset: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
          extra: { name: 'USDC', version: '2' },
        },
      ],
    });
    const v2 = decodeHeaderJson(response.headers.get('payment-required'));
    expect(v2).toMatchObject({ x402Version: 2, accepts: [{ scheme: 'exact', network: 'eip155:84532', amount: '1500000', payTo: PLATFORM_PAY_TO }] });
  });

  it('a valid signed payment is settled through the facilitator and credits the prepaid balance with that publisher', async () => {
    const agent = await registerAgent(t);
    const header = await signPaymentHeader(payer, { to: PLATFORM_PAY_TO, value: 1_500_000n });
    const calls = facilitator.calls.length;
    const response = await deposit(agent.api_key, { amount: '1.50', publisher_id: publisherId }, header);
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      amount: '1.50',
      publisher_id: publisherId,
      prepaid_balance: '1.50',
      payer: payer.address,
      network: 'eip155:84532',
      status: 'credited',
      transaction_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    const receipt = decodeHeaderJson(response.headers.get('x-payment-response'));
    expect(receipt).toMatchObject({ success: true, transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/), payer: payer.address });
    expect(decodeHeaderJson(response.headers.get('payment-response'))).toEqual(receipt);
    expect(facilitator.calls.slice(calls).map((call) => call.path)).toEqual(['/verify', '/settle']);
    const balance = await t.api.get('/wallet/balance', { token: agent.api_key });
    expect(balance.body.data).toMatchObject({ balance: '0.00', prepaid_credits: [{ publisher_id: publisherId, balance: '1.50' }] });
    const [movement] = (await t.api.get('/wallet/transactions', { token: agent.api_key })).body.data;
    expect(movement).toMatchObject({ type: 'deposit', amount: '1.50', balance_after: '1.50', reference: receipt.transaction, metadata: { method: 'x402', publisher_id: publisherId } });
  });

  it('accepts a version 2 PAYMENT-SIGNATURE and answers PAYMENT-RESPONSE', async () => {
    const agent = await registerAgent(t);
    const header = await signPaymentHeader(payer, { to: PLATFORM_PAY_TO, value: 250_000n, version: 2 });
    const response = await deposit(agent.api_key, { amount: '0.25', publisher_id: publisherId }, header, 'PAYMENT-SIGNATURE');
    expect(response.status).toBe(200);
    expect(decodeHeaderJson(response.headers.get('payment-response')).success).toBe(true);
  });

  it.each([
    ['a wrong amount', { value: 1_000_000n }, 'invalid_exact_evm_payload_authorization_value'],
    ['a wrong payee', { to: Wallet.createRandom().address }, 'invalid_exact_evm_payload_recipient_mismatch'],
    ['an expired authorization', { validBefore: Math.floor(Date.now() / 1000) + 3 }, 'invalid_exact_evm_payload_authorization_valid_before'],
    // Asked for at most 300 s: one valid for a day could stay unresolvable for a day.
    ['an authorization valid for a day', { validBefore: Math.floor(Date.now() / 1000) + 86_400 }, 'invalid_exact_evm_payload_authorization_valid_before'],
    ['a not yet valid authorization', { validAfter: Math.floor(Date.now() / 1000) + 600 }, 'invalid_exact_evm_payload_authorization_valid_after'],
    ['another network', { network: 'eip155:8453' }, 'invalid_network'],
  ])('refuses %s with 402 and credits nothing', async (_label, overrides, reason) => {
    const agent = await registerAgent(t);
    const header = await signPaymentHeader(payer, { to: PLATFORM_PAY_TO, value: 1_500_000n, ...overrides });
    const response = await deposit(agent.api_key, { amount: '1.50', publisher_id: publisherId }, header);
    expect([response.status, response.body.error]).toEqual([402, reason]);
    expect((await t.api.get('/wallet/balance', { token: agent.api_key })).body.data.prepaid_credits).toEqual([]);
  });

  it('refuses a signature that is not the payer\'s', async () => {
    const agent = await registerAgent(t);
    const header = await signPaymentHeader(payer, { to: PLATFORM_PAY_TO, value: 1_500_000n });
    const message = decodeHeaderJson(header);
    message.payload.authorization.from = Wallet.createRandom().address;
    const forged = Buffer.from(JSON.stringify(message)).toString('base64');
    const response = await deposit(agent.api_key, { amount: '1.50', publisher_id: publisherId }, forged);
    expect([response.status, response.body.error]).toEqual([402, 'invalid_exact_evm_payload_signature']);
    const garbage = await deposit(agent.api_key, { amount: '1.50', publisher_id: publisherId }, 'not base64 json');
    expect([garbage.status, garbage.body.error]).toEqual([402, 'invalid_payload']);
  });

  it('accepts each (network, payer, nonce) once: a replay, even concurrent, pays nothing more', async () => {
    const agent = await registerAgent(t);
    const header = await signPaymentHeader(payer, { to: PLATFORM_PAY_TO, value: 500_000n, nonce: `0x${randomBytes(32).toString('hex')}` });
    const results = await Promise.all([1, 2, 3].map(() => deposit(agent.api_key, { amount: '0.50', publisher_id: publisherId }, header)));
    expect(results.map((result) => result.status).sort()).toEqual([200, 402, 402]);
    expect(results.find((result) => result.status === 402)!.body.error).toBe('duplicate_settlement');
    const again = await deposit(agent.api_key, { amount: '0.50', publisher_id: publisherId }, header);
    expect([again.status, again.body.error]).toEqual([402, 'duplicate_settlement']);
    expect((await t.api.get('/wallet/balance', { token: agent.api_key })).body.data.prepaid_credits).toEqual([{ publisher_id: publisherId, balance: '0.50' }]);
  });

  it('a refused settlement credits nothing', async () => {
    const agent = await registerAgent(t);
    facilitator.refuseSettlement = true;
    try {
      const header = await signPaymentHeader(payer, { to: PLATFORM_PAY_TO, value: 500_000n });
      const response = await deposit(agent.api_key, { amount: '0.50', publisher_id: publisherId }, header);
      expect([response.status, response.body.error]).toEqual([402, 'insufficient_funds']);
    } finally {
      facilitator.refuseSettlement = false;
    }
    expect((await t.api.get('/wallet/balance', { token: agent.api_key })).body.data.prepaid_credits).toEqual([]);
  });

  it('a settlement without a clear answer is 502 settlement_unknown, kept for checking and never marked failed; the authorization is not taken again', async () => {
    const agent = await registerAgent(t);
    const header = await signPaymentHeader(payer, { to: PLATFORM_PAY_TO, value: 500_000n });
    const response = await facilitator.withUnclearSettlement(() => deposit(agent.api_key, { amount: '0.50', publisher_id: publisherId }, header));
    expect([response.status, response.body.error.code]).toEqual([502, 'settlement_unknown']);
    const em = t.platform.services.orm.em.fork() as EntityManager;
    const [payment] = await em.execute(`select status, unbooked_transfers from x402_payment where payer = ? order by created_at desc limit 1`, [payer.address.toLowerCase()]);
    expect(payment.status).toBe('settle_unknown');
    expect(payment.unbooked_transfers).toEqual([
      expect.objectContaining({ amount: '500000', kind: 'deposit', credit: { kind: 'prepaid', userId: agent.id, publisherId } }),
    ]);
    const again = await deposit(agent.api_key, { amount: '0.50', publisher_id: publisherId }, header);
    expect([again.status, again.body.error]).toEqual([402, 'duplicate_settlement']);
    expect((await t.api.get('/wallet/balance', { token: agent.api_key })).body.data.prepaid_credits).toEqual([]);
  });

  it('found on-chain later, a settle_unknown deposit is credited with its transaction', async () => {
    const agent = await registerAgent(t);
    expect((await depositUnclear(agent.api_key, '0.25', 250_000n)).status).toBe(502);
    const em = t.platform.services.orm.em.fork() as EntityManager;
    const [payment] = await em.execute(`select network, payer, nonce from x402_payment where payer = ? order by created_at desc limit 1`, [payer.address.toLowerCase()]);
    const transaction = `0x${'cd'.repeat(32)}`;
    expect(await resolveUnknownPayment(em, payment as PaymentKey, { settled: true, transaction }, t.platform.services)).toBe('booked');
    expect((await t.api.get('/wallet/balance', { token: agent.api_key })).body.data.prepaid_credits).toEqual([{ publisher_id: publisherId, balance: '0.25' }]);
  });

  it('a settled deposit whose credit cannot be booked answers 202 pending, never loses the money, and the sweep credits it once', async () => {
    const agent = await registerAgent(t);
    const em = t.platform.services.orm.em.fork() as EntityManager;
    const bookkeeper = t.platform.services;
    await bookUnbookedPayments(em, bookkeeper);
    const header = await signPaymentHeader(payer, { to: PLATFORM_PAY_TO, value: 400_000n });
    const response = await withX402BookingsRefused(em, 1000, () => deposit(agent.api_key, { amount: '0.40', publisher_id: publisherId }, header));
    expect(response.status).toBe(202);
    expect(response.body.data).toMatchObject({ amount: '0.40', status: 'pending', transaction_id: null, prepaid_balance: '0.00' });
    expect(decodeHeaderJson(response.headers.get('x-payment-response'))).toMatchObject({ success: true });
    const replay = await deposit(agent.api_key, { amount: '0.40', publisher_id: publisherId }, header);
    expect([replay.status, replay.body.error]).toEqual([402, 'duplicate_settlement']);
    expect(await bookUnbookedPayments(em, bookkeeper)).toEqual({ booked: 1, failed: 0 });
    expect(await bookUnbookedPayments(em, bookkeeper)).toEqual({ booked: 0, failed: 0 });
    expect((await t.api.get('/wallet/balance', { token: agent.api_key })).body.data.prepaid_credits).toEqual([{ publisher_id: publisherId, balance: '0.40' }]);
  });

  it('a deposit kept as settle_unknown by the first version (account as userId and publisherId) is credited when found on-chain', async () => {
    const agent = await registerAgent(t);
    const em = t.platform.services.orm.em.fork() as EntityManager;
    const key = { network: 'eip155:84532', payer: payer.address.toLowerCase(), nonce: `0x${randomBytes(32).toString('hex')}` };
    const idempotencyKey = `x402:${key.network}:${key.payer}:${key.nonce}`;
    await em.execute(
      `insert into x402_payment (network, payer, nonce, amount, pay_to, resource, status, created_at, unbooked_transfers)
       values (?, ?, ?, 300000, ?, 'http://app.test/wallet/deposit/crypto', 'settle_unknown', now(), ?::jsonb)`,
      [key.network, key.payer, key.nonce, PLATFORM_PAY_TO.toLowerCase(), JSON.stringify([{ idempotencyKey, amount: '300000', kind: 'deposit', userId: agent.id, publisherId }])],
    );
    const transaction = `0x${'ee'.repeat(32)}`;
    expect(await resolveUnknownPayment(em, key, { settled: true, transaction }, t.platform.services)).toBe('booked');
    expect((await t.api.get('/wallet/balance', { token: agent.api_key })).body.data.prepaid_credits).toEqual([{ publisher_id: publisherId, balance: '0.30' }]);
    const [movement] = (await t.api.get('/wallet/transactions', { token: agent.api_key })).body.data;
    expect(movement).toMatchObject({ type: 'deposit', amount: '0.30', reference: transaction });
  });

  it('a kept plan that cannot be read is refused before anything changes', async () => {
    const em = t.platform.services.orm.em.fork() as EntityManager;
    const key = { network: 'eip155:84532', payer: payer.address.toLowerCase(), nonce: `0x${randomBytes(32).toString('hex')}` };
    await em.execute(
      `insert into x402_payment (network, payer, nonce, amount, pay_to, resource, status, created_at, unbooked_transfers)
       values (?, ?, ?, 1, '0x0', 'http://app.test/x', 'settle_unknown', now(), '[{"amount": "1"}]')`,
      [key.network, key.payer, key.nonce],
    );
    await expect(resolveUnknownPayment(em, key, { settled: true, transaction: `0x${'aa'.repeat(32)}` }, t.platform.services)).rejects.toThrow(/cannot be read/);
    const [row] = await em.execute(`select status from x402_payment where nonce = ?`, [key.nonce]);
    expect(row.status).toBe('settle_unknown');
  });

  it('when even the balance cannot be read, a pending deposit still answers 202 (balance null) and is credited by the sweep', async () => {
    const agent = await registerAgent(t);
    const em = t.platform.services.orm.em.fork() as EntityManager;
    await bookUnbookedPayments(em, t.platform.services);
    const header = await signPaymentHeader(payer, { to: PLATFORM_PAY_TO, value: 200_000n });
    const refusedAccounts = { table: 'ledger_account', when: `new.kind = 'prepaid'` };
    const response = await withInsertsRefused(em, refusedAccounts, () => deposit(agent.api_key, { amount: '0.20', publisher_id: publisherId }, header));
    expect(response.status).toBe(202);
    expect(response.body.data).toMatchObject({ status: 'pending', prepaid_balance: null, transaction_id: null });
    expect(await bookUnbookedPayments(em, t.platform.services)).toEqual({ booked: 1, failed: 0 });
    expect((await t.api.get('/wallet/balance', { token: agent.api_key })).body.data.prepaid_credits).toEqual([{ publisher_id: publisherId, balance: '0.20' }]);
  });

  it('a payment keeps what it will book from the moment it is recorded, so one a crash leaves verified can still be booked', async () => {
    const agent = await registerAgent(t);
    const em = t.platform.services.orm.em.fork() as EntityManager;
    const paymentRow = async () => (await em.execute(`select * from x402_payment where payer = ? order by created_at desc limit 1`, [payer.address.toLowerCase()]))[0]!;
    facilitator.settleDelayMs = 500;
    let inFlight: Record<string, any>;
    let answered;
    try {
      const header = await signPaymentHeader(payer, { to: PLATFORM_PAY_TO, value: 150_000n });
      const answer = deposit(agent.api_key, { amount: '0.15', publisher_id: publisherId }, header);
      for (inFlight = await paymentRow(); inFlight.status !== 'verified' || inFlight.amount !== '150000'; inFlight = await paymentRow()) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      answered = await answer;
    } finally {
      facilitator.settleDelayMs = 0;
    }
    expect(inFlight.unbooked_transfers).toEqual([expect.objectContaining({ amount: '150000', kind: 'deposit', credit: { kind: 'prepaid', userId: agent.id, publisherId } })]);
    expect(answered.status).toBe(200);
    expect(await paymentRow()).toMatchObject({ status: 'settled', unbooked_transfers: null });

    // A crash between settling and booking: the row stays verified with its plan.
    expect((await depositUnclear(agent.api_key, '0.05', 50_000n)).status).toBe(502);
    const row = await paymentRow();
    await em.execute(`update x402_payment set status = 'verified' where nonce = ?`, [row.nonce]);
    const key = { network: row.network, payer: row.payer, nonce: row.nonce };
    const transaction = `0x${'bc'.repeat(32)}`;
    // A young verified payment may still be settling: it is never touched.
    expect(await resolveUnknownPayment(em, key, { settled: true, transaction }, t.platform.services)).toBe('not_found');
    await em.execute(`update x402_payment set created_at = now() - interval '1 hour' where nonce = ?`, [row.nonce]);
    expect(await resolveUnknownPayment(em, key, { settled: true, transaction }, t.platform.services)).toBe('booked');
    expect((await t.api.get('/wallet/balance', { token: agent.api_key })).body.data.prepaid_credits).toEqual([{ publisher_id: publisherId, balance: '0.20' }]);
  });

  it('a late answer from the live settlement never overwrites what an operator resolved meanwhile', async () => {
    const agent = await registerAgent(t);
    const em = t.platform.services.orm.em.fork() as EntityManager;
    const header = await signPaymentHeader(payer, { to: PLATFORM_PAY_TO, value: 300_000n });
    facilitator.settleDelayMs = 800;
    facilitator.unclearSettlement = 'html-502';
    try {
      const live = deposit(agent.api_key, { amount: '0.30', publisher_id: publisherId }, header);
      let row: Record<string, any> | undefined;
      while (!row) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        [row] = await em.execute(`select network, payer, nonce from x402_payment where payer = ? and amount = 300000 and status = 'verified'`, [payer.address.toLowerCase()]);
      }
      // Seen as stale (a clock far ahead), and found on-chain by an operator while the call still waits.
      await em.execute(`update x402_payment set created_at = now() - interval '1 day' where nonce = ?`, [row.nonce]);
      const resolution = await resolveUnknownPayment(em, row as PaymentKey, { settled: true, transaction: `0x${'de'.repeat(32)}` }, t.platform.services);
      expect(resolution).toBe('booked');
      expect((await live).status).toBe(502);
      const [after] = await em.execute(`select status, transaction from x402_payment where nonce = ?`, [row.nonce]);
      expect(after).toEqual({ status: 'settled', transaction: `0x${'de'.repeat(32)}` });
    } finally {
      facilitator.settleDelayMs = 0;
      facilitator.unclearSettlement = null;
    }
    expect((await t.api.get('/wallet/balance', { token: agent.api_key })).body.data.prepaid_credits).toEqual([{ publisher_id: publisherId, balance: '0.30' }]);
  });

  it('a verified payment recorded before plans were kept cannot be booked blind, but can be failed once expired', async () => {
    const em = t.platform.services.orm.em.fork() as EntityManager;
    const key = { network: 'eip155:84532', payer: payer.address.toLowerCase(), nonce: `0x${randomBytes(32).toString('hex')}` };
    await em.execute(
      `insert into x402_payment (network, payer, nonce, amount, pay_to, resource, status, created_at, valid_before)
       values (?, ?, ?, 1000, '0x0', 'http://app.test/x', 'verified', now() - interval '1 hour', now() - interval '30 minutes')`,
      [key.network, key.payer, key.nonce],
    );
    expect(await resolveUnknownPayment(em, key, { settled: true, transaction: `0x${'cd'.repeat(32)}` }, t.platform.services)).toBe('no_plan');
    expect(await resolveUnknownPayment(em, key, { settled: false }, t.platform.services)).toBe('failed');
  });

  it.each([8_700_000_000_000, 10_000_000_000_000])('refuses an authorization valid for longer than dates go (validBefore %d) and records nothing', async (validBefore) => {
    const agent = await registerAgent(t);
    const header = await signPaymentHeader(payer, { to: PLATFORM_PAY_TO, value: 100_000n, validBefore });
    const response = await deposit(agent.api_key, { amount: '0.10', publisher_id: publisherId }, header);
    expect([response.status, response.body.error]).toEqual([402, 'invalid_exact_evm_payload_authorization_valid_before']);
    const em = t.platform.services.orm.em.fork() as EntityManager;
    const nonce = decodeHeaderJson(header).payload.authorization.nonce;
    expect(await em.execute('select 1 from x402_payment where nonce = ?', [nonce])).toEqual([]);
  });

  it('in verify-only mode a verified signature is enough (no facilitator call)', async () => {
    const agent = await registerAgent(t);
    const x402 = t.platform.services.config.x402;
    t.platform.services.config.x402 = { ...x402, settlement: 'verify-only' };
    try {
      const calls = facilitator.calls.length;
      const header = await signPaymentHeader(payer, { to: PLATFORM_PAY_TO, value: 100_000n });
      const response = await deposit(agent.api_key, { amount: '0.10', publisher_id: publisherId }, header);
      expect(response.status).toBe(200);
      expect(decodeHeaderJson(response.headers.get('x-payment-response'))).toMatchObject({ success: true, network: 'base-sepolia' });
      const v2 = await signPaymentHeader(payer, { to: PLATFORM_PAY_TO, value: 100_000n, version: 2 });
      const answered = await deposit(agent.api_key, { amount: '0.10', publisher_id: publisherId }, v2, 'PAYMENT-SIGNATURE');
      expect(decodeHeaderJson(answered.headers.get('payment-response')).network).toBe('eip155:84532');
      expect(facilitator.calls.length).toBe(calls);
    } finally {
      t.platform.services.config.x402 = x402;
    }
  });

  it('pays the publisher\'s own wallet when it has one; an unknown publisher is 404', async () => {
    const agent = await registerAgent(t);
    const publisherWallet = Wallet.createRandom().address;
    const publisherId = randomUUID();
    const ports = t.platform.services.ports;
    ports.publisherPayee = async (_em, id) =>
      id === publisherId ? { publisherId, slug: 'pub', walletAddress: publisherWallet, walletNetworkId: 'eip155:84532' } : null;
    try {
      const required = await deposit(agent.api_key, { amount: '1.00', publisher_id: publisherId });
      expect(required.body.accepts[0].payTo).toBe(publisherWallet);
      const header = await signPaymentHeader(payer, { to: publisherWallet, value: 1_000_000n });
      expect((await deposit(agent.api_key, { amount: '1.00', publisher_id: publisherId }, header)).status).toBe(200);
      // The publisher holds the money: the credits are an advance on its payable, which the calls spending them pay back.
      expect(await publisherPayableOf(t, publisherId)).toBe('-1000000');
      expect((await t.api.get('/wallet/balance', { token: agent.api_key })).body.data.prepaid_credits).toEqual([{ publisher_id: publisherId, balance: '1.00' }]);
      const unknown = await deposit(agent.api_key, { amount: '1.00', publisher_id: randomUUID() });
      expect([unknown.status, unknown.body.error.code]).toEqual([404, 'publisher_not_found']);
    } finally {
      delete ports.publisherPayee;
    }
  });

  it.each([
    [{ amount: '1e3', publisher_id: randomUUID() }, 'invalid_amount'],
    [{ amount: '-1', publisher_id: randomUUID() }, 'invalid_amount'],
    [{ amount: '0.0000001', publisher_id: randomUUID() }, 'invalid_amount'],
    [{ amount: '1.00', publisher_id: 'nope' }, 'invalid_publisher_id'],
  ])('refuses bad input %p with 400', async (body, code) => {
    const agent = await registerAgent(t);
    const response = await deposit(agent.api_key, body);
    expect([response.status, response.body.error.code]).toEqual([400, code]);
  });

  it('needs a Bearer', async () => {
    expect((await t.api.post('/wallet/deposit/crypto', { amount: '1.00', publisher_id: randomUUID() })).status).toBe(401);
  });
});
