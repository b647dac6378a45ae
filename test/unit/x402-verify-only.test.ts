import { describe, expect, it } from '@jest/globals';
import { Wallet } from 'ethers';
import { checkPayment, decodePaymentHeader, payeeOf, verifyExactPayment } from '../../shared/x402/index.js';
import { settlePayment } from '../../shared/x402/settle.js';
import type { PaymentTerms } from '../../shared/x402/requirements.js';
import { signPaymentHeader } from '../support/x402.js';

/**
 * X402_SETTLEMENT=verify-only accepts a signature alone on test money only. A publisher with its own
 * wallet is paid on its own network (payeeOf), which may be Base mainnet while X402_NETWORK is
 * base-sepolia: that payment is refused, in any environment.
 */
describe('verify-only settlement and Base mainnet', () => {
  it('a platform on base-sepolia in verify-only mode never accepts an unsettled payment on Base mainnet (a publisher wallet there)', async () => {
    const publisherWallet = Wallet.createRandom().address;
    // Production-allowed configuration: platform on the testnet, verify-only.
    const payee = payeeOf({ payTo: Wallet.createRandom().address, network: 'eip155:84532' }, { walletAddress: publisherWallet, walletNetworkId: 'eip155:8453' });
    expect(payee.network.caip2).toBe('eip155:8453');
    const terms: PaymentTerms = { network: payee.network, payTo: payee.payTo, amount: 11_000n, resource: 'https://platform.test/publishers/p/x', description: 'A call' };
    // Signed by a fresh wallet holding nothing: only a settlement could tell.
    const header = await signPaymentHeader(Wallet.createRandom(), { to: publisherWallet, value: 11_000n, network: 'eip155:8453' });
    const payment = verifyExactPayment(decodePaymentHeader(header), terms);
    await expect(settlePayment(payment, terms, { mode: 'verify-only' })).rejects.toMatchObject({ reason: 'invalid_network' });
    await expect(checkPayment(payment, terms, { mode: 'verify-only' })).rejects.toMatchObject({ reason: 'invalid_network' });
  });
});
