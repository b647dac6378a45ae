import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { BaseWallet } from 'ethers';
import { findNetwork, transferWithAuthorizationTypes } from '../../shared/x402/index.js';
import { withInsertsRefused } from './database-faults.js';
import type { TestPlatform } from './platform.js';
import { createPublisher } from './publishers.js';

export interface SignOptions {
  to: string;
  value: bigint;
  network?: string;
  validAfter?: number;
  validBefore?: number;
  nonce?: string;
  version?: 1 | 2;
}

/** What an x402 client sends: a base64 JSON EIP-3009 transferWithAuthorization signed with EIP-712. */
export async function signPaymentHeader(wallet: BaseWallet, options: SignOptions): Promise<string> {
  const network = findNetwork(options.network ?? 'eip155:84532')!;
  const now = Math.floor(Date.now() / 1000);
  const authorization = {
    from: wallet.address,
    to: options.to,
    value: options.value.toString(),
    validAfter: String(options.validAfter ?? now - 60),
    // As a client signs for a call (maxTimeoutSeconds, here beyond the longest call the test platform allows), within a deposit's bound too.
    validBefore: String(options.validBefore ?? now + 600),
    nonce: options.nonce ?? `0x${randomBytes(32).toString('hex')}`,
  };
  const signature = await wallet.signTypedData(
    { ...network.eip712, chainId: network.chainId, verifyingContract: network.asset },
    transferWithAuthorizationTypes,
    authorization,
  );
  const payload = { signature, authorization };
  const message =
    options.version === 2
      ? { x402Version: 2, accepted: { scheme: 'exact', network: network.caip2, asset: network.asset, payTo: options.to, amount: authorization.value }, payload }
      : { x402Version: 1, scheme: 'exact', network: network.name, payload };
  return Buffer.from(JSON.stringify(message)).toString('base64');
}

/** Runs `work` while the database refuses the first `failures` ledger rows of on-chain payments, as one failing mid-booking would. */
export const withX402BookingsRefused = <T>(em: EntityManager, failures: number, work: () => Promise<T>): Promise<T> =>
  withInsertsRefused(em, { table: 'ledger_transfer', when: `new.metadata->>'method' = 'x402'`, times: failures }, work);

/** The x402_payment row of the call made to `path` of a publisher. */
export async function x402PaymentOf(t: TestPlatform, slug: string, path: string) {
  const em = t.platform.services.orm.em.fork() as EntityManager;
  const [payment] = await em.execute(`select * from x402_payment where resource like ?`, [`%/${slug}${path}`]);
  return payment;
}

/** What a publisher's payable accounts hold, posted, in micro-dollars. */
export async function publisherPayableOf(t: TestPlatform, publisherId: string): Promise<string> {
  const em = t.platform.services.orm.em.fork() as EntityManager;
  const [payable] = await em.execute(
    `select coalesce(sum(credits_posted - debits_posted), 0)::text as balance from ledger_account where kind = 'publisher_payable' and publisher_id = ?`,
    [publisherId],
  );
  return payable.balance;
}

/**
 * An `x402_per_request` publisher of `GET /echo/{thing}` at 0.01 per call plus a 10% fee: 0.011 USD,
 * 11000 atomic USDC units. Paid to the platform's address unless `overrides` name a wallet.
 */
export function createX402Publisher(t: TestPlatform, ownerToken: string, apiUrl: string, overrides: Record<string, unknown> = {}) {
  return createPublisher(t, ownerToken, {
    api_url: apiUrl,
    billing_model: 'x402_per_request',
    wallet_address: '',
    wallet_network_id: '',
    gateway_fee_percent: '10',
    endpoints: [{ method: 'GET', path: '/echo/{thing}', description: 'Echo' }],
    pricing: [{ pricing_model: 'per_request', price_per_call: '0.01', onchain_enabled: true }],
    ...overrides,
  });
}

/** An x402 header's JSON (PAYMENT-REQUIRED, X-PAYMENT-RESPONSE): base64 of UTF-8 JSON. */
export const decodeHeaderJson = (header: string | null) => JSON.parse(Buffer.from(header ?? '', 'base64').toString('utf8'));
