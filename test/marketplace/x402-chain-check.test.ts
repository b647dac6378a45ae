import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Wallet } from 'ethers';
import { FakeChainNode } from '../fakes/chain-node.js';
import { FakeFacilitator } from '../fakes/facilitator.js';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream-server.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { signUpVerified } from '../support/accounts.js';
import { createPublisher } from '../support/publishers.js';
import { checkLedgerAfterEach } from '../support/wallet.js';
import { publisherPayableOf, signPaymentHeader, x402PaymentOf } from '../support/x402.js';
import { chainCheckers, findNetwork, resolveUnknownPaymentsOnChain, type ChainChecker } from '../../shared/x402/index.js';
import { loadConfig } from '../../shared/config.js';

const NETWORK = findNetwork('eip155:84532')!;
const PLATFORM_PAY_TO = Wallet.createRandom().address;
const payer = Wallet.createRandom();
let upstream: FakeUpstream;
let facilitator: FakeFacilitator;
let node: FakeChainNode;
let t: TestPlatform;
let checker: ChainChecker;
let ownerToken: string;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  facilitator = await new FakeFacilitator().start();
  node = await new FakeChainNode(NETWORK.asset).start();
  t = await startTestPlatform({
    PROXY_ALLOW_PRIVATE_UPSTREAMS: 'true',
    X402_PAY_TO: PLATFORM_PAY_TO,
    X402_NETWORK: 'eip155:84532',
    X402_FACILITATOR_URL: facilitator.url,
    X402_RPC_URLS: `base-sepolia=${node.url}`,
  });
  [checker] = chainCheckers(t.platform.services.config) as [ChainChecker];
  ownerToken = (await signUpVerified(t)).accessToken;
});
afterAll(async () => {
  checker.close();
  await t.close();
  await node.close();
  await facilitator.close();
  await upstream.close();
});
checkLedgerAfterEach(() => t);

/** 0.01 per call plus a 10% fee, paid to the platform: 11000 atomic USDC units. */
const x402Publisher = () =>
  createPublisher(t, ownerToken, {
    api_url: upstream.url,
    billing_model: 'x402_per_request',
    wallet_address: '',
    wallet_network_id: '',
    gateway_fee_percent: '10',
    endpoints: [{ method: 'GET', path: '/echo/{thing}', description: 'Echo' }],
    pricing: [{ pricing_model: 'per_request', price_per_call: '0.01', onchain_enabled: true }],
  });

/** Calls made while the facilitator answers /settle unclearly: each payment is left settle_unknown. */
async function unansweredPayments(slug: string, paths: string[]) {
  facilitator.garbleSettlement = true;
  try {
    for (const path of paths) {
      const header = await signPaymentHeader(payer, { to: PLATFORM_PAY_TO, value: 11_000n });
      expect((await t.api.get(`/publishers/${slug}${path}`, { headers: { 'X-PAYMENT': header } })).status).toBe(200);
    }
  } finally {
    facilitator.garbleSettlement = false;
  }
  const payments = await Promise.all(paths.map((path) => x402PaymentOf(t, slug, path)));
  for (const payment of payments) expect(payment.status).toBe('settle_unknown');
  return payments;
}

const sweep = () => resolveUnknownPaymentsOnChain(t.platform.services.orm.em.fork() as EntityManager, checker, t.platform.services);
const statusOf = async (slug: string, path: string) => (await x402PaymentOf(t, slug, path)).status;

describe('payments the facilitator left unanswered, resolved on-chain (X402_RPC_URLS)', () => {
  it('books one whose transfer to us is on-chain, with its transaction; leaves one that may still execute', async () => {
    const pub = await x402Publisher();
    const [paid] = await unansweredPayments(pub.slug, ['/echo/paid', '/echo/pending']);
    const transaction = node.execute({ payer: payer.address, nonce: paid.nonce, payTo: PLATFORM_PAY_TO, amount: 11_000n });
    const outcome = await sweep();
    expect(outcome).toMatchObject({ paid: 1, waiting: 1, failed: 0, unclear: 0, errors: 0 });
    expect(await x402PaymentOf(t, pub.slug, '/echo/paid')).toMatchObject({ status: 'settled', transaction, unbooked_transfers: null });
    expect(await publisherPayableOf(t, pub.id)).toBe('10000');
    const em = t.platform.services.orm.em.fork() as EntityManager;
    const references = await em.execute(`select distinct reference from ledger_transfer where idempotency_key like ?`, [`x402-call:%:${paid.nonce}:%`]);
    expect(references).toEqual([{ reference: transaction }]);
    expect(await statusOf(pub.slug, '/echo/pending')).toBe('settle_unknown');
    // Asked again, nothing moves twice.
    expect(await sweep()).toMatchObject({ paid: 0, waiting: 1 });
    expect(await publisherPayableOf(t, pub.id)).toBe('10000');
  });

  it('counts a transaction only once it is a dozen blocks deep (a reorganised tip cannot book a payment)', async () => {
    const pub = await x402Publisher();
    const [recent] = await unansweredPayments(pub.slug, ['/echo/recent']);
    const transaction = node.execute({ payer: payer.address, nonce: recent.nonce, payTo: PLATFORM_PAY_TO, amount: 11_000n }, { depth: 3 });
    await sweep();
    expect(await statusOf(pub.slug, '/echo/recent')).toBe('settle_unknown');
    node.mine(12);
    await sweep();
    expect(await x402PaymentOf(t, pub.slug, '/echo/recent')).toMatchObject({ status: 'settled', transaction });
  });

  it('fails one whose authorization expired unused, but only once the chain’s own clock has passed its validBefore', async () => {
    const pub = await x402Publisher();
    const [lost] = await unansweredPayments(pub.slug, ['/echo/lost']);
    const em = t.platform.services.orm.em.fork() as EntityManager;
    await em.execute(`update x402_payment set valid_before = now() - interval '10 minutes' where nonce = ?`, [lost.nonce]);
    const lagging = node.blockTime;
    node.blockTime = Math.floor(Date.now() / 1000) - 3600;
    try {
      expect(await sweep()).toMatchObject({ failed: 0 });
      expect(await statusOf(pub.slug, '/echo/lost')).toBe('settle_unknown');
    } finally {
      node.blockTime = lagging;
    }
    node.blockTime = Math.floor(Date.now() / 1000);
    expect(await sweep()).toMatchObject({ failed: 1 });
    expect(await statusOf(pub.slug, '/echo/lost')).toBe('failed');
    expect(await publisherPayableOf(t, pub.id)).toBe('0');
  });

  it('books nothing for a nonce the payer spent on another transfer, even beside a payment to us, nor for a reverted one: a person must look', async () => {
    const pub = await x402Publisher();
    const [elsewhere, beside, reverted] = await unansweredPayments(pub.slug, ['/echo/elsewhere', '/echo/beside', '/echo/reverted']);
    node.spendNonceElsewhere({ payer: payer.address, nonce: elsewhere.nonce, amount: 11_000n });
    // The nonce's own transfer went to the payer; the payment to us in the same transaction was another's.
    node.execute({ payer: payer.address, nonce: beside.nonce, payTo: payer.address, amount: 11_000n }, { alsoPaid: { payTo: PLATFORM_PAY_TO, amount: 11_000n } });
    node.execute({ payer: payer.address, nonce: reverted.nonce, payTo: PLATFORM_PAY_TO, amount: 11_000n }, { status: 0 });
    const outcome = await sweep();
    expect(outcome).toMatchObject({ paid: 0, unclear: 2 });
    expect(await statusOf(pub.slug, '/echo/elsewhere')).toBe('settle_unknown');
    expect(await statusOf(pub.slug, '/echo/beside')).toBe('settle_unknown');
    // A reverted transaction used no nonce: still waiting (it may yet execute).
    expect(await statusOf(pub.slug, '/echo/reverted')).toBe('settle_unknown');
    expect(await publisherPayableOf(t, pub.id)).toBe('0');
  });

  it('a node that does not answer changes nothing; the payment is noted as asked, so the next sweep asks the others first', async () => {
    const pub = await x402Publisher();
    await unansweredPayments(pub.slug, ['/echo/unasked']);
    node.down = true;
    try {
      const outcome = await sweep();
      expect(outcome.errors).toBeGreaterThanOrEqual(1);
      expect(outcome.paid + outcome.failed).toBe(0);
    } finally {
      node.down = false;
    }
    expect(await statusOf(pub.slug, '/echo/unasked')).toBe('settle_unknown');
    expect((await x402PaymentOf(t, pub.slug, '/echo/unasked')).chain_checked_at).not.toBeNull();
  });
});

describe('X402_RPC_URLS', () => {
  it('takes <network>=<url> pairs, by CAIP-2 id or name, and refuses anything else', () => {
    const env = { NODE_ENV: 'test', DATA_DIR: '/tmp/acp-config-test' };
    expect(loadConfig({ ...env, X402_RPC_URLS: 'base=https://mainnet.example, eip155:84532=http://127.0.0.1:8545' }).x402.rpcUrls).toEqual({
      'eip155:8453': 'https://mainnet.example',
      'eip155:84532': 'http://127.0.0.1:8545',
    });
    expect(loadConfig(env).x402.rpcUrls).toEqual({});
    for (const bad of ['eip155:1=https://x.example', 'base', 'base=ftp://x.example', 'base=not a url']) {
      expect(() => loadConfig({ ...env, X402_RPC_URLS: bad })).toThrow(/X402_RPC_URLS/);
    }
  });
});
