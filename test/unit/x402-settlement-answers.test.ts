import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Wallet } from 'ethers';
import { decodePaymentHeader, findNetwork, SettlementUnknown, verifyExactPayment } from '../../shared/x402/index.js';
import { settlePayment } from '../../shared/x402/settle.js';
import type { PaymentTerms } from '../../shared/x402/requirements.js';
import { startFakeServer, type FakeServer } from '../fakes/listen.js';
import { signPaymentHeader } from '../support/x402.js';

/** A facilitator whose /settle answers `settled` (and whose /verify says yes). */
let settled: Record<string, unknown> = {};
let facilitator: FakeServer;
beforeAll(async () => {
  facilitator = await startFakeServer((req, _body, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(req.url === '/verify' ? { isValid: true } : settled));
  });
});
afterAll(() => facilitator.close());

const payee = Wallet.createRandom().address;
const terms: PaymentTerms = { network: findNetwork('eip155:84532')!, payTo: payee, amount: 11_000n, resource: 'https://platform.test/x', description: 'A call' };

async function signedPayment(payer = Wallet.createRandom()) {
  return verifyExactPayment(decodePaymentHeader(await signPaymentHeader(payer, { to: payee, value: 11_000n })), terms);
}

describe('a facilitator’s success answer', () => {
  it('for this payment on this network is a settlement', async () => {
    const payment = await signedPayment();
    settled = { success: true, transaction: '0xabc', network: 'base-sepolia', payer: payment.payer.toLowerCase() };
    await expect(settlePayment(payment, terms, { mode: 'facilitator', facilitatorUrl: facilitator.url })).resolves.toMatchObject({ transaction: '0xabc' });
  });

  it('for another payer or another network is not booked: the settlement is unknown, left for the chain check', async () => {
    const payment = await signedPayment();
    for (const answer of [
      { success: true, transaction: '0xabc', network: 'base-sepolia', payer: Wallet.createRandom().address },
      { success: true, transaction: '0xabc', network: 'base', payer: payment.payer },
      { success: true, transaction: '0xabc', network: 'base-sepolia', payer: 42 },
    ]) {
      settled = answer;
      await expect(settlePayment(payment, terms, { mode: 'facilitator', facilitatorUrl: facilitator.url })).rejects.toBeInstanceOf(SettlementUnknown);
    }
  });
});
