import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Wallet } from 'ethers';
import { FakeChainNode } from '../fakes/chain-node.js';
import type { FakeFacilitator } from '../fakes/facilitator.js';
import type { FakeUpstream } from '../fakes/upstream-server.js';
import type { TestPlatform } from '../support/platform.js';
import { checkLedgerAfterEach } from '../support/wallet.js';
import { startX402TestBed, type X402TestBed } from '../support/x402-test-bed.js';
import { createX402Publisher, publisherPayableOf, signPaymentHeader, x402PaymentOf } from '../support/x402.js';
import { pino } from 'pino';
import { Writable } from 'node:stream';
import { ChainChecker, findNetwork, resolveUnknownPayment, resolveUnknownPaymentsOnChain, type ChainSweepOptions } from '../../shared/x402/index.js';
import type { Logger } from '../../shared/logger.js';
import { loadConfig } from '../../shared/config.js';

const NETWORK = findNetwork('eip155:84532')!;
const payer = Wallet.createRandom();
let bed: X402TestBed;
let upstream: FakeUpstream;
let facilitator: FakeFacilitator;
let node: FakeChainNode;
let t: TestPlatform;
let checker: ChainChecker;
let ownerToken: string;
let PLATFORM_PAY_TO: string;

beforeAll(async () => {
  node = await new FakeChainNode(NETWORK.asset).start();
  // The node is the tests' alone: with X402_RPC_URLS the platform's own minutely sweep would ask it too.
  bed = await startX402TestBed();
  ({ t, upstream, facilitator, ownerToken, platformPayTo: PLATFORM_PAY_TO } = bed);
  checker = new ChainChecker(node.url, NETWORK);
});
afterAll(async () => {
  checker.close();
  await bed.close();
  await node.close();
});
checkLedgerAfterEach(() => t);

/** 0.011 USD a call (11000 atomic units), paid to the platform. */
const x402Publisher = () => createX402Publisher(t, ownerToken, upstream.url);

/** A logger whose warnings and errors the test reads back. */
function capturedLog(): { log: Logger; lines: () => { msg: string; node?: { code: string } }[] } {
  const written: string[] = [];
  const sink = new Writable({ write: (chunk, _encoding, done) => void (written.push(String(chunk)), done()) });
  return { log: pino({ level: 'warn' }, sink) as unknown as Logger, lines: () => written.map((line) => JSON.parse(line)) };
}

/** Calls made while the facilitator answers /settle unclearly: each payment is left settle_unknown. */
async function unansweredPayments(slug: string, paths: string[]) {
  await facilitator.withUnclearSettlement(async () => {
    for (const path of paths) {
      const header = await signPaymentHeader(payer, { to: PLATFORM_PAY_TO, value: 11_000n });
      expect((await t.api.get(`/publishers/${slug}${path}`, { headers: { 'X-PAYMENT': header } })).status).toBe(200);
    }
  });
  const payments = await Promise.all(paths.map((path) => x402PaymentOf(t, slug, path)));
  for (const payment of payments) expect(payment.status).toBe('settle_unknown');
  return payments;
}

/** A sweep as the platform runs it, except that what it asked about may be asked about again at once (the tests sweep back to back). */
const sweep = (bookkeeper = t.platform.services, options: ChainSweepOptions = { recheckAfterSeconds: 0 }) =>
  resolveUnknownPaymentsOnChain(t.platform.services.orm.em.fork() as EntityManager, checker, bookkeeper, options);
/** How many payments a sweep asked the node about (or failed to). */
const askedIn = (outcome: Record<string, number>) => Object.values(outcome).reduce((sum, n) => sum + n, 0);
const statusOf = async (slug: string, path: string) => (await x402PaymentOf(t, slug, path)).status;

describe('payments the facilitator left unanswered, resolved on-chain (X402_RPC_URLS)', () => {
  it('books one whose transfer to us is on-chain, with its transaction; leaves one that may still execute', async () => {
    const pub = await x402Publisher();
    const [paid] = await unansweredPayments(pub.slug, ['/echo/paid', '/echo/pending']);
    const transaction = node.execute({ payer: payer.address, nonce: paid.nonce, payTo: PLATFORM_PAY_TO, amount: 11_000n });
    const outcome = await sweep();
    expect(outcome).toMatchObject({ paid: 1, waiting: 1, failed: 0, unclear: 0, errors: 0 });
    expect(await x402PaymentOf(t, pub.slug, '/echo/paid')).toMatchObject({ status: 'settled', transaction, unbooked_transfers: null, chain_finding: 'paid' });
    expect(await publisherPayableOf(t, pub.id)).toBe('10000');
    const em = t.platform.services.orm.em.fork() as EntityManager;
    const references = await em.execute(`select distinct reference from ledger_transfer where idempotency_key like ?`, [`x402-call:%:${paid.nonce}:%`]);
    expect(references).toEqual([{ reference: transaction }]);
    expect(await x402PaymentOf(t, pub.slug, '/echo/pending')).toMatchObject({ status: 'settle_unknown', chain_finding: 'waiting' });
  });

  it('books one a crash left verified between settling and booking, once it is stale, and leaves a fresh one to its live call', async () => {
    const pub = await x402Publisher();
    const [crashed, live] = await unansweredPayments(pub.slug, ['/echo/crashed', '/echo/live']);
    const em = t.platform.services.orm.em.fork() as EntityManager;
    await em.execute(`update x402_payment set status = 'verified', created_at = now() - interval '1 hour' where nonce = ?`, [crashed.nonce]);
    await em.execute(`update x402_payment set status = 'verified' where nonce = ?`, [live.nonce]);
    const transaction = node.execute({ payer: payer.address, nonce: crashed.nonce, payTo: PLATFORM_PAY_TO, amount: 11_000n });
    node.execute({ payer: payer.address, nonce: live.nonce, payTo: PLATFORM_PAY_TO, amount: 11_000n });
    await sweep();
    expect(await x402PaymentOf(t, pub.slug, '/echo/crashed')).toMatchObject({ status: 'settled', transaction, chain_finding: 'paid' });
    expect(await x402PaymentOf(t, pub.slug, '/echo/live')).toMatchObject({ status: 'verified', chain_checked_at: null });
    expect(await publisherPayableOf(t, pub.id)).toBe('10000');
  });

  it('a payment another process resolves while this sweep asks the node is counted as resolved elsewhere: booked once, its finding and claim not overwritten', async () => {
    const pub = await x402Publisher();
    const [paid, expired] = await unansweredPayments(pub.slug, ['/echo/raced-paid', '/echo/raced-expired']);
    const em = t.platform.services.orm.em.fork() as EntityManager;
    await em.execute(`update x402_payment set valid_before = now() - interval '1 hour', created_at = now() - interval '2 hours' where nonce = ?`, [expired.nonce]);
    const transaction = node.execute({ payer: payer.address, nonce: paid.nonce, payTo: PLATFORM_PAY_TO, amount: 11_000n });
    // An operator states each outcome (npm run x402:payments settled/failed) just before the node answers the sweep.
    const operatorFirst = new (class extends ChainChecker {
      override async find(lookup: Parameters<ChainChecker['find']>[0], at: Parameters<ChainChecker['find']>[1]) {
        const key = { network: NETWORK.caip2, payer: lookup.payer, nonce: lookup.nonce };
        const stated = lookup.nonce === paid.nonce ? { settled: true as const, transaction } : { settled: false as const };
        await resolveUnknownPayment(t.platform.services.orm.em.fork() as EntityManager, key, stated, t.platform.services);
        return super.find(lookup, at);
      }
    })(node.url, NETWORK);
    try {
      const outcome = await resolveUnknownPaymentsOnChain(em, operatorFirst, t.platform.services, { recheckAfterSeconds: 0, takeClaimed: true });
      expect(outcome).toMatchObject({ paid: 0, failed: 0, resolvedElsewhere: 2, errors: 0 });
    } finally {
      operatorFirst.close();
    }
    expect(await x402PaymentOf(t, pub.slug, '/echo/raced-paid')).toMatchObject({ status: 'settled', transaction, chain_finding: null, chain_claimed_until: null });
    expect(await x402PaymentOf(t, pub.slug, '/echo/raced-expired')).toMatchObject({ status: 'failed', chain_finding: null, chain_claimed_until: null });
    expect(await publisherPayableOf(t, pub.id)).toBe('10000');
  });

  it('counts a transaction only once it is a dozen blocks deep (a reorganised tip can neither book nor hide a payment)', async () => {
    const pub = await x402Publisher();
    const [recent] = await unansweredPayments(pub.slug, ['/echo/recent']);
    const transaction = node.execute({ payer: payer.address, nonce: recent.nonce, payTo: PLATFORM_PAY_TO, amount: 11_000n }, { depth: 3 });
    await sweep();
    // Read 12 blocks below the tip, the nonce is still unused: the payment waits.
    expect(await x402PaymentOf(t, pub.slug, '/echo/recent')).toMatchObject({ status: 'settle_unknown', chain_finding: 'waiting' });
    node.mine(12);
    await sweep();
    expect(await x402PaymentOf(t, pub.slug, '/echo/recent')).toMatchObject({ status: 'settled', transaction });
  });

  it('finds a use older than one log range: logs are searched back to the payment, range by range', async () => {
    const pub = await x402Publisher();
    const [old] = await unansweredPayments(pub.slug, ['/echo/old']);
    const transaction = node.execute({ payer: payer.address, nonce: old.nonce, payTo: PLATFORM_PAY_TO, amount: 11_000n });
    // 30,000 blocks later (a node outage of 17 hours on Base): the payment was accepted 17 hours before the tip.
    node.mine(30_000);
    const em = t.platform.services.orm.em.fork() as EntityManager;
    await em.execute(`update x402_payment set created_at = now() - interval '17 hours' where nonce = ?`, [old.nonce]);
    node.calls.length = 0;
    await sweep();
    expect(await x402PaymentOf(t, pub.slug, '/echo/old')).toMatchObject({ status: 'settled', transaction });
    expect(node.calls.filter((method) => method === 'eth_getLogs').length).toBeGreaterThanOrEqual(4);
  });

  it('fails one whose authorization expired unused, but only once the chain’s own clock has passed its validBefore; never one whose validBefore is unknown', async () => {
    const pub = await x402Publisher();
    const [lost, unknown] = await unansweredPayments(pub.slug, ['/echo/lost', '/echo/unrecorded']);
    const em = t.platform.services.orm.em.fork() as EntityManager;
    await em.execute(`update x402_payment set valid_before = now() - interval '10 minutes' where nonce = ?`, [lost.nonce]);
    // Recorded before validBefore was kept, a day ago: a person could fail it; the sweep never does, unseen.
    await em.execute(`update x402_payment set valid_before = null, created_at = now() - interval '2 days' where nonce = ?`, [unknown.nonce]);
    const inTime = node.blockTime;
    node.blockTime = Math.floor(Date.now() / 1000) - 3600;
    try {
      await sweep();
      expect(await x402PaymentOf(t, pub.slug, '/echo/lost')).toMatchObject({ status: 'settle_unknown', chain_finding: 'waiting' });
    } finally {
      node.blockTime = inTime;
    }
    await sweep();
    expect(await statusOf(pub.slug, '/echo/lost')).toBe('failed');
    expect(await x402PaymentOf(t, pub.slug, '/echo/unrecorded')).toMatchObject({ status: 'settle_unknown', chain_finding: 'unclear' });
    expect(await publisherPayableOf(t, pub.id)).toBe('0');
    // It may still be executed: asked about again hourly, and booked once it is.
    node.execute({ payer: payer.address, nonce: unknown.nonce, payTo: PLATFORM_PAY_TO, amount: 11_000n });
    await sweep(t.platform.services, { recheckAfterSeconds: 0 });
    expect(await statusOf(pub.slug, '/echo/unrecorded')).toBe('settle_unknown');
    await em.execute(`update x402_payment set chain_checked_at = now() - interval '61 minutes' where nonce = ?`, [unknown.nonce]);
    await sweep(t.platform.services, { recheckAfterSeconds: 0 });
    expect(await statusOf(pub.slug, '/echo/unrecorded')).toBe('settled');
  });

  it('books nothing for a nonce spent on another transfer (to the payer, or beside a payment to us), nor for the wrong amount: a person must look, told once', async () => {
    const pub = await x402Publisher();
    const paths = ['/echo/elsewhere', '/echo/beside', '/echo/short', '/echo/reverted'];
    const [elsewhere, beside, short, reverted] = await unansweredPayments(pub.slug, paths);
    node.spendNonceElsewhere({ payer: payer.address, nonce: elsewhere.nonce, amount: 11_000n });
    // The nonce's own transfer went to the payer; the payment to us in the same transaction was another's.
    node.execute({ payer: payer.address, nonce: beside.nonce, payTo: payer.address, amount: 11_000n }, { alsoPaid: { payTo: PLATFORM_PAY_TO, amount: 11_000n } });
    node.execute({ payer: payer.address, nonce: short.nonce, payTo: PLATFORM_PAY_TO, amount: 10_999n });
    node.execute({ payer: payer.address, nonce: reverted.nonce, payTo: PLATFORM_PAY_TO, amount: 11_000n }, { status: 0 });
    const { log, lines } = capturedLog();
    await sweep({ ...t.platform.services, log });
    const findings = await Promise.all(paths.map(async (path) => (await x402PaymentOf(t, pub.slug, path)) as { status: string; chain_finding: string }));
    expect(findings.map(({ status, chain_finding }) => [status, chain_finding])).toEqual([
      ['settle_unknown', 'unclear'],
      ['settle_unknown', 'unclear'],
      ['settle_unknown', 'unclear'],
      // A reverted transaction uses no nonce: the payment may still execute.
      ['settle_unknown', 'waiting'],
    ]);
    expect(await publisherPayableOf(t, pub.id)).toBe('0');
    expect(lines().filter((line) => line.msg.startsWith('x402 chain check: a person must resolve'))).toHaveLength(3);
    // Past its first day, what the chain showed stands: no sweep asks again, even hours later.
    const em = t.platform.services.orm.em.fork() as EntityManager;
    const nonces = [elsewhere.nonce, beside.nonce, short.nonce];
    await em.execute(`update x402_payment set chain_checked_at = now() - interval '3 hours', created_at = now() - interval '2 days' where nonce in (?, ?, ?)`, nonces);
    const checkedAt = async () => (await em.execute(`select chain_checked_at from x402_payment where nonce in (?, ?, ?) order by nonce`, nonces)).map((row) => String(row.chain_checked_at));
    const before = await checkedAt();
    await sweep(t.platform.services, { recheckAfterSeconds: 0 });
    expect(await checkedAt()).toEqual(before);
    // An operator's check asks again, and the person is not told again.
    const again = capturedLog();
    await sweep({ ...t.platform.services, log: again.log }, { takeClaimed: true });
    expect(await checkedAt()).not.toEqual(before);
    expect(await Promise.all(paths.slice(0, 3).map(async (path) => (await x402PaymentOf(t, pub.slug, path)).chain_finding))).toEqual(['unclear', 'unclear', 'unclear']);
    expect(again.lines().filter((line) => line.msg.startsWith('x402 chain check: a person must resolve'))).toHaveLength(0);
  });

  it('a used nonce whose use a lagging node does not show yet is asked about again within the hour of its first day, and booked once it shows', async () => {
    const pub = await x402Publisher();
    const [lagged] = await unansweredPayments(pub.slug, ['/echo/lagged']);
    node.execute({ payer: payer.address, nonce: lagged.nonce, payTo: PLATFORM_PAY_TO, amount: 11_000n });
    node.logsLagging = true;
    try {
      await sweep();
    } finally {
      node.logsLagging = false;
    }
    expect(await x402PaymentOf(t, pub.slug, '/echo/lagged')).toMatchObject({ status: 'settle_unknown', chain_finding: 'unclear' });
    const em = t.platform.services.orm.em.fork() as EntityManager;
    await em.execute(`update x402_payment set chain_checked_at = now() - interval '61 minutes' where nonce = ?`, [lagged.nonce]);
    await sweep();
    expect(await statusOf(pub.slug, '/echo/lagged')).toBe('settled');
  });

  it('a node that fails ends the sweep and changes nothing; the next asks first the payments it did not reach; its URL never reaches the logs', async () => {
    const pub = await x402Publisher();
    const [first, second] = await unansweredPayments(pub.slug, ['/echo/first', '/echo/second']);
    const secretChecker = new ChainChecker(`${node.url}/v2/SECRET-NODE-KEY`, NETWORK);
    const { log, lines } = capturedLog();
    node.failing.add('eth_call');
    try {
      const em = t.platform.services.orm.em.fork() as EntityManager;
      const outcome = await resolveUnknownPaymentsOnChain(em, secretChecker, { ...t.platform.services, log }, { recheckAfterSeconds: 0 });
      expect(outcome).toEqual({ paid: 0, failed: 0, waiting: 0, unclear: 0, resolvedElsewhere: 0, errors: 1 });
      node.down = true;
      expect(await resolveUnknownPaymentsOnChain(em, secretChecker, { ...t.platform.services, log }, { recheckAfterSeconds: 0 })).toMatchObject({ errors: 1 });
    } finally {
      node.failing.clear();
      node.down = false;
      secretChecker.close();
    }
    expect(JSON.stringify(lines())).not.toContain('SECRET-NODE-KEY');
    expect(lines().map((line) => line.node?.code)).toEqual(['SERVER_ERROR', 'SERVER_ERROR']);
    const asked = await x402PaymentOf(t, pub.slug, '/echo/first');
    expect([asked.status, asked.chain_checked_at === null]).toEqual(['settle_unknown', false]);
    expect((await x402PaymentOf(t, pub.slug, '/echo/second')).chain_checked_at).toBeNull();
    await sweep();
    const [firstAsked, secondAsked] = await Promise.all([x402PaymentOf(t, pub.slug, '/echo/first'), x402PaymentOf(t, pub.slug, '/echo/second')]);
    expect(new Date(secondAsked.chain_checked_at).getTime()).toBeLessThan(new Date(firstAsked.chain_checked_at).getTime());
    expect(first.nonce).not.toBe(second.nonce);
  });

  it('a payment found paid that cannot be booked (an unreadable plan) is counted as an error and goes to the back of the line, not the front', async () => {
    const pub = await x402Publisher();
    const [broken] = await unansweredPayments(pub.slug, ['/echo/unreadable']);
    const em = t.platform.services.orm.em.fork() as EntityManager;
    await em.execute(`update x402_payment set chain_checked_at = null, chain_claimed_until = null where status = 'settle_unknown'`);
    await em.execute(`update x402_payment set unbooked_transfers = '[{"amount":"1"}]'::jsonb where nonce = ?`, [broken.nonce]);
    node.execute({ payer: payer.address, nonce: broken.nonce, payTo: PLATFORM_PAY_TO, amount: 11_000n });
    const { log, lines } = capturedLog();
    expect(await sweep({ ...t.platform.services, log })).toMatchObject({ paid: 0, errors: 1 });
    expect(lines().filter((line) => line.msg === 'x402 chain check: resolving a payment failed')).toHaveLength(1);
    const asked = await x402PaymentOf(t, pub.slug, '/echo/unreadable');
    // Noted as asked (unnoted, it kept a null chain_checked_at and headed every sweep), its claim given back.
    expect([asked.status, asked.chain_checked_at === null, asked.chain_claimed_until]).toEqual(['settle_unknown', false, null]);
  });

  it('replicas ask the node about each payment once, sweeping at once or a moment apart; a minute later, again', async () => {
    const pub = await x402Publisher();
    await unansweredPayments(pub.slug, ['/echo/r1', '/echo/r2', '/echo/r3', '/echo/r4']);
    const em = t.platform.services.orm.em.fork() as EntityManager;
    // Everything due, including what earlier tests left waiting.
    await em.execute(`update x402_payment set chain_checked_at = null, chain_finding = null, chain_claimed_until = null where status = 'settle_unknown'`);
    const [{ due }] = await em.execute(`select count(*)::int as due from x402_payment where status = 'settle_unknown' and network = ?`, [NETWORK.caip2]);
    const asPlatform = () => sweep(t.platform.services, {});
    const outcomes = await Promise.all([asPlatform(), asPlatform(), asPlatform()]);
    expect(outcomes.map((outcome) => askedIn({ ...outcome })).reduce((sum, n) => sum + n, 0)).toBe(due);
    // Those left to a person are not asked about again by the sweeps.
    const everyMinute = due - outcomes.reduce((sum, outcome) => sum + outcome.unclear, 0);
    expect(everyMinute).toBeGreaterThan(4);
    // Another replica's sweep a moment later leaves them alone.
    expect(askedIn({ ...(await asPlatform()) })).toBe(0);
    // An operator's check does not, and asks about those left to a person too.
    expect(askedIn({ ...(await sweep(t.platform.services, { takeClaimed: true })) })).toBe(due);
    // A minute later (here: asked about a minute ago), they are due again.
    await em.execute(`update x402_payment set chain_checked_at = now() - interval '1 minute' where status = 'settle_unknown' and chain_checked_at is not null`);
    expect(askedIn({ ...(await asPlatform()) })).toBe(everyMinute);
  });

  it('hands back the payments a stopping sweep did not reach; a claim a crashed process left runs out', async () => {
    const pub = await x402Publisher();
    await unansweredPayments(pub.slug, ['/echo/s1', '/echo/s2']);
    const em = t.platform.services.orm.em.fork() as EntityManager;
    await em.execute(`update x402_payment set chain_claimed_until = null`);
    let between = 0;
    const outcome = await sweep(t.platform.services, { recheckAfterSeconds: 0, stopping: () => between++ >= 1 });
    expect(askedIn({ ...outcome })).toBe(1);
    const [{ claimed }] = await em.execute(`select count(*)::int as claimed from x402_payment where chain_claimed_until is not null`);
    expect(claimed).toBe(0);
    await em.execute(`update x402_payment set chain_claimed_until = now() + interval '20 minutes', chain_checked_at = null where status = 'settle_unknown'`);
    expect(await sweep()).toEqual({ paid: 0, failed: 0, waiting: 0, unclear: 0, resolvedElsewhere: 0, errors: 0 });
    await em.execute(`update x402_payment set chain_claimed_until = now() - interval '1 second' where status = 'settle_unknown'`);
    expect(askedIn({ ...(await sweep()) })).toBeGreaterThan(1);
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
    for (const bad of ['eip155:1=https://x.example', 'base', 'base=ftp://x.example', 'base=not a url', 'base=https://a.example,eip155:8453=https://b.example']) {
      expect(() => loadConfig({ ...env, X402_RPC_URLS: bad })).toThrow(/X402_RPC_URLS/);
    }
    // A hosted node's URL carries its API key: never echoed.
    expect(() => loadConfig({ ...env, X402_RPC_URLS: 'base=ftp://node.example/v2/SECRET-KEY' })).toThrow(/^(?![\s\S]*SECRET-KEY)/);
  });

  it('never echoes an entry that is not plainly a network: one pasted without `<network>=` is all URL, or all key', () => {
    const env = { NODE_ENV: 'test', DATA_DIR: '/tmp/acp-config-test' };
    const refusal = (value: string) => {
      try {
        loadConfig({ ...env, X402_RPC_URLS: value });
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error(`${value} was accepted`);
    };
    const key = '9aa3d95b3bc440fa88ea12eaa4456161';
    for (const bad of [
      `https://base-mainnet.g.alchemy.com/v2/${key}`,
      `https://node.example/v2/${key}?chain=base`,
      `https://node.example/v2/${key}=https://node.example`,
      `wss://base-mainnet.example/${key}`,
      key,
      `base=https://ok.example, https://base-mainnet.g.alchemy.com/v2/${key}`,
    ]) {
      const message = refusal(bad);
      expect(message).toMatch(/X402_RPC_URLS: entry \d is not <network>=<http\(s\) URL>/);
      expect(message).not.toContain(key);
    }
    expect(refusal(`base=https://ok.example, https://node.example/${key}`)).toContain('entry 2');
    expect(refusal('eip155:1=https://x.example')).toContain('the entry for "eip155:1"');
  });
});
