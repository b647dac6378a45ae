import { describe, expect, it } from '@jest/globals';
import { Wallet } from 'ethers';
import { decodePaymentHeader, findNetwork, PaymentRejected, verifyExactPayment } from '../../shared/x402/index.js';
import type { PaymentTerms } from '../../shared/x402/requirements.js';
import { signPaymentHeader } from '../support/x402.js';

const payer = Wallet.createRandom();
const payTo = Wallet.createRandom().address;
const now = Math.floor(Date.now() / 1000);
const terms = (maxTimeoutSeconds?: number): PaymentTerms => ({
  network: findNetwork('eip155:84532')!,
  payTo,
  amount: 10_000n,
  resource: 'https://platform.test/publishers/x/y',
  description: 'A call',
  maxTimeoutSeconds,
});

async function verdict(validBefore: number, maxTimeoutSeconds?: number): Promise<string> {
  const header = await signPaymentHeader(payer, { to: payTo, value: 10_000n, validAfter: now - 60, validBefore });
  try {
    verifyExactPayment(decodePaymentHeader(header), terms(maxTimeoutSeconds), now);
    return 'accepted';
  } catch (error) {
    if (error instanceof PaymentRejected) return error.reason;
    throw error;
  }
}

describe('the validity window of an x402 authorization', () => {
  it('must last at least 6 s more, and no longer than maxTimeoutSeconds (300 by default) plus 10 minutes of clock skew', async () => {
    expect(await verdict(now + 6)).toBe('invalid_exact_evm_payload_authorization_valid_before');
    expect(await verdict(now + 7)).toBe('accepted');
    expect(await verdict(now + 300 + 600)).toBe('accepted');
    expect(await verdict(now + 300 + 601)).toBe('invalid_exact_evm_payload_authorization_valid_before');
    expect(await verdict(now + 60 + 600, 60)).toBe('accepted');
    expect(await verdict(now + 60 + 601, 60)).toBe('invalid_exact_evm_payload_authorization_valid_before');
  });
});
