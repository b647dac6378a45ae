import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Wallet } from 'ethers';
import type { FakeFacilitator } from '../fakes/facilitator.js';
import type { FakeUpstream } from '../fakes/upstream-server.js';
import type { TestPlatform } from '../support/platform.js';
import { startX402TestBed, type X402TestBed } from '../support/x402-test-bed.js';
import { createX402Publisher, signPaymentHeader } from '../support/x402.js';
import { publisherBody } from '../support/publishers.js';

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

const reached = (path: string) => upstream.requests.filter((request) => request.path === path).length;

/** Runs `work` while the facilitator's /verify says the payer cannot pay (no USDC on-chain). */
async function withUnfundedPayer<T>(work: () => Promise<T>): Promise<T> {
  const fake = facilitator as unknown as { reply: (req: IncomingMessage, text: string, res: ServerResponse) => void };
  const original = fake.reply;
  fake.reply = function (req, text, res) {
    if (req.url === '/verify') {
      facilitator.calls.push({ path: '/verify', body: JSON.parse(text || '{}') });
      res.setHeader('content-type', 'application/json');
      return void res.end(JSON.stringify({ isValid: false, invalidReason: 'insufficient_funds' }));
    }
    return original.call(this, req, text, res);
  };
  try {
    return await work();
  } finally {
    fake.reply = original;
  }
}

describe('x402 per request: the payment is good before the upstream works for it', () => {
  it('a payment the facilitator says cannot be paid (payer without funds) is refused before any byte reaches the upstream', async () => {
    const wallet = Wallet.createRandom().address;
    const pub = await createX402Publisher(t, ownerToken, upstream.url, { wallet_address: wallet, wallet_network_id: 'eip155:84532' });
    // A well-formed signature from a wallet holding no USDC.
    const header = await signPaymentHeader(payer, { to: wallet, value: 11_000n });
    const response = await withUnfundedPayer(() => t.api.get(`/publishers/${pub.slug}/echo/unfunded`, { headers: { 'X-PAYMENT': header } }));
    expect(response.status).toBe(402);
    expect(response.body.error).toBe('insufficient_funds');
    // The publisher must not do (and pay for) the work of a call that is never paid.
    expect(reached('/echo/unfunded')).toBe(0);
  });

  it('an authorization that expires before the call can be settled (valid for 8 s, calls may take longestCallSeconds) is refused before the upstream', async () => {
    const wallet = Wallet.createRandom().address;
    const pub = await createX402Publisher(t, ownerToken, upstream.url, { wallet_address: wallet, wallet_network_id: 'eip155:84532' });
    expect(t.platform.services.config.proxy.longestCallSeconds).toBeGreaterThan(8);
    // Settled only after the upstream answers: a call that runs longer than 8 s does the work, then cannot be settled.
    const header = await signPaymentHeader(payer, { to: wallet, value: 11_000n, validBefore: Math.floor(Date.now() / 1000) + 8 });
    const response = await t.api.get(`/publishers/${pub.slug}/echo/short-lived`, { headers: { 'X-PAYMENT': header } });
    expect(response.status).toBe(402);
    expect(response.body.error).toBe('invalid_exact_evm_payload_authorization_valid_before');
    expect(reached('/echo/short-lived')).toBe(0);
  });

  it('a version 2 payment is sent to the facilitator with version 2 requirements (CAIP-2 network, amount), matching its own `accepted`', async () => {
    const wallet = Wallet.createRandom().address;
    const pub = await createX402Publisher(t, ownerToken, upstream.url, { wallet_address: wallet, wallet_network_id: 'eip155:84532' });
    const header = await signPaymentHeader(payer, { to: wallet, value: 11_000n, version: 2 });
    const before = facilitator.calls.length;
    const response = await t.api.get(`/publishers/${pub.slug}/echo/v2-facilitator`, { headers: { 'PAYMENT-SIGNATURE': header } });
    expect(response.status).toBe(200);
    const verify = facilitator.calls.slice(before).find((call) => call.path === '/verify')!;
    expect(verify.body.x402Version).toBe(2);
    expect(verify.body.paymentRequirements).toMatchObject({ scheme: 'exact', network: 'eip155:84532', amount: '11000', payTo: wallet });
    expect(verify.body.paymentRequirements.network).toBe(verify.body.paymentPayload.accepted.network);
  });

  it('a publisher wallet address with a wrong EIP-55 checksum is refused when saved (it made every paid call 500); one in lower case is kept checksummed', async () => {
    const good = Wallet.createRandom().address;
    // Flip the case of one letter: still 0x + 40 hex digits, but an invalid EIP-55 checksum.
    const index = [...good].findIndex((c, i) => i > 1 && /[a-fA-F]/.test(c));
    const badChecksum = good.slice(0, index) + (good[index] === good[index]!.toUpperCase() ? good[index]!.toLowerCase() : good[index]!.toUpperCase()) + good.slice(index + 1);
    const withWallet = (address: string) => publisherBody({ billing_model: 'x402_per_request', wallet_address: address, wallet_network_id: 'eip155:84532' });
    const refused = await t.api.post('/publishers', withWallet(badChecksum), { token: ownerToken });
    expect([refused.status, refused.body.error.code]).toEqual([400, 'invalid_wallet_address']);
    const lowered = await t.api.post('/publishers', withWallet(good.toLowerCase()), { token: ownerToken });
    expect(lowered.body.data.wallet_address).toBe(good);
  });
});
