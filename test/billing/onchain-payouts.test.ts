import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Wallet, type Contract } from 'ethers';
import { signUpVerified } from '../support/accounts.js';
import { OPERATOR_KEY } from '../support/billing.js';
import { deployTestToken, HARDHAT_KEYS, startEvmNode, type EvmNode } from '../support/evm-node.js';
import { fundPrepaid } from '../support/funding.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { createPublisher } from '../support/publishers.js';
import { checkLedgerAfterEach } from '../support/wallet.js';
import { registerAgent } from '../support/accounts.js';

let node: EvmNode;
let token: Contract;
let t: TestPlatform;
const payoutSigner = new Wallet(HARDHAT_KEYS[0]!);

beforeAll(async () => {
  node = await startEvmNode();
  token = await deployTestToken(node, HARDHAT_KEYS[1]!);
  await (await token.getFunction('mint')(payoutSigner.address, 1_000_000_000n)).wait();
  t = await startTestPlatform({
    ADMIN_API_KEYS: OPERATOR_KEY,
    PAYOUT_HOLD_DAYS: '0',
    PAYOUT_RPC_URL: node.url,
    PAYOUT_SIGNER_KEY: HARDHAT_KEYS[0]!,
    PAYOUT_ASSET: await token.getAddress(),
  });
}, 90_000);
afterAll(async () => {
  await t?.close();
  await node?.stop();
});
checkLedgerAfterEach(() => t);

/** A publisher paid to a fresh address, with 1.95 of earnings (a 2.00 charge less its 2.5% fee). */
async function earningPublisher() {
  const owner = await signUpVerified(t);
  const payee = Wallet.createRandom().address;
  const publisher = await createPublisher(t, owner.accessToken, { wallet_address: payee });
  const payer = await registerAgent(t);
  await fundPrepaid(t, payer.id, publisher.id, '2.00');
  const charged = await t.api.post(`/billing/publishers/${publisher.slug}/charges`, { payer_id: payer.id, amount: '2.00' }, { token: owner.accessToken });
  expect(charged.status).toBe(200);
  return { token: owner.accessToken, slug: publisher.slug as string, payee };
}

const earnings = async (p: { slug: string; token: string }) => (await t.api.get(`/billing/publishers/${p.slug}/earnings`, { token: p.token })).body.data;

describe('payouts on chain (Hardhat Network, a test ERC-20)', () => {
  it('sends an ERC-20 transfer of the amount to the publisher’s address, records its hash and is paid by its receipt', async () => {
    const publisher = await earningPublisher();
    const response = await t.api.post(`/billing/publishers/${publisher.slug}/payouts`, { amount: '1.25' }, { token: publisher.token });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ status: 'paid', amount: '1.25', tx_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/), asset: await token.getAddress() });
    expect(await token.getFunction('balanceOf')(publisher.payee)).toBe(1_250_000n);
    const receipt = await node.provider.getTransactionReceipt(response.body.data.tx_hash);
    expect(receipt?.status).toBe(1);
    expect(await earnings(publisher)).toMatchObject({ balance: '0.70', pending_payouts: '0.00', available: '0.70' });
    const health = (await t.api.get('/billing/health')).body.data;
    expect(health.on_chain_payouts).toBe(true);
  });

  it('a reverted transfer leaves the payout failed and the earnings available', async () => {
    const publisher = await earningPublisher();
    const minter = token.connect(new Wallet(HARDHAT_KEYS[1]!, node.provider)) as Contract;
    await (await minter.getFunction('blockTransfers')(true)).wait();
    try {
      const response = await t.api.post(`/billing/publishers/${publisher.slug}/payouts`, { amount: '1.00' }, { token: publisher.token });
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ status: 'failed', failure_reason: expect.stringContaining('transfers blocked') });
      expect(await token.getFunction('balanceOf')(publisher.payee)).toBe(0n);
      expect(await earnings(publisher)).toMatchObject({ balance: '1.95', pending_payouts: '0.00', available: '1.95' });
    } finally {
      await (await minter.getFunction('blockTransfers')(false)).wait();
    }
    const retried = await t.api.post(`/billing/publishers/${publisher.slug}/payouts`, { amount: '1.00' }, { token: publisher.token });
    expect(retried.body.data.status).toBe('paid');
  });

  it('concurrent payouts each take their own nonce and all arrive', async () => {
    const publisher = await earningPublisher();
    const results = await Promise.all(Array.from({ length: 5 }, () => t.api.post(`/billing/publishers/${publisher.slug}/payouts`, { amount: '0.30' }, { token: publisher.token })));
    expect(results.map((r) => r.body.data.status)).toEqual(Array(5).fill('paid'));
    expect(await token.getFunction('balanceOf')(publisher.payee)).toBe(1_500_000n);
  });
});
