import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { EntityManager } from '@mikro-orm/postgresql';
import { announceChange, CHANGE_LISTENER_APPLICATION } from '../../shared/db/change-notices.js';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream-server.js';
import { registerAgent, signUpVerified, type SignedInUser } from '../support/accounts.js';
import { fundWallet } from '../support/funding.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { createPublisher } from '../support/publishers.js';

/**
 * Two replicas on one database. Their caches live far longer than any wait below, so only the
 * change announced by one replica can explain what the other does next.
 */
const replicaEnv = {
  API_KEY_CACHE_SECONDS: '60',
  PROXY_PUBLISHER_CACHE_SECONDS: '300',
  PROXY_ALLOW_PRIVATE_UPSTREAMS: 'true',
  JWT_SECRET: randomBytes(32).toString('hex'),
  INTERNAL_SECRET: randomBytes(32).toString('hex'),
  SECRETS_KEY: randomBytes(32).toString('hex'),
};

let first: TestPlatform;
let second: TestPlatform;
let upstream: FakeUpstream;
let owner: SignedInUser;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  first = await startTestPlatform(replicaEnv);
  second = await startTestPlatform(replicaEnv, { database: first.database });
  owner = await signUpVerified(first);
});
afterAll(async () => {
  await second?.close();
  await first?.close();
  await upstream?.close();
});

/** The status `request` answers with once it answers `wanted`, or its last status after 5 s. */
async function statusOnce(wanted: number, request: () => Promise<{ status: number }>): Promise<number> {
  let status = (await request()).status;
  for (let waited = 0; status !== wanted && waited < 5000; waited += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    status = (await request()).status;
  }
  return status;
}

async function paidCaller() {
  const agent = await registerAgent(first);
  await fundWallet(first, agent.id, '1.00');
  return agent;
}

async function echoPublisher() {
  return createPublisher(first, owner.accessToken, {
    api_url: upstream.url,
    endpoints: [{ method: 'GET', path: '/echo/{thing}', description: 'Echo' }],
    pricing: [{ pricing_model: 'per_request', price_per_call: '0.01' }],
  });
}

describe('caches shared by replicas', () => {
  it('a key revoked through one replica stops working on the other at once', async () => {
    const created = await first.api.post('/organizations/default/api-keys', { name: 'replicated' }, { token: owner.accessToken });
    const key = created.body.data.key as string;
    expect((await second.api.get('/auth/me', { token: key })).status).toBe(200);
    expect((await first.api.delete(`/organizations/default/api-keys/${created.body.data.api_key.id}`, { token: owner.accessToken })).status).toBe(200);
    expect(await statusOnce(401, () => second.api.get('/auth/me', { token: key }))).toBe(401);
  });

  it('a publisher changed through one replica is called as changed on the other at once', async () => {
    const agent = await paidCaller();
    const publisher = await echoPublisher();
    expect((await second.api.get(`/publishers/${publisher.slug}/echo/one`, { token: agent.api_key })).status).toBe(200);
    const patched = await first.api.patch(
      `/publishers/${publisher.slug}`,
      { endpoints: [{ method: 'GET', path: '/echo/{thing}', description: 'Echo', is_protected: true, protection_reason: 'Closed' }] },
      { token: owner.accessToken },
    );
    expect(patched.status).toBe(200);
    expect(await statusOnce(403, () => second.api.get(`/publishers/${publisher.slug}/echo/two`, { token: agent.api_key }))).toBe(403);
  });

  it('ignores malformed notices (anyone with database access can NOTIFY) and still acts on the next good one', async () => {
    const heard: string[] = [];
    second.platform.services.changes.on('publisher', (slug) => heard.push(slug));
    const em = first.platform.services.orm.em.fork() as EntityManager;
    for (const payload of ['null', 'not json', '{"topic":"publisher"}', '{"topic":"publisher","keys":[1]}', '{"topic":"elsewhere","keys":["x"]}', '{"topic":"publisher","keys":["heard-it"]}']) {
      await em.execute(`select pg_notify('platform_changes', ?)`, [payload]);
    }
    for (let waited = 0; heard.length === 0 && waited < 3000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(heard).toEqual(['heard-it']);
    expect((await second.api.get('/healthz')).status).toBe(200);
  });

  it('a change announced inside a transaction reaches the others when it commits, and never if it rolls back', async () => {
    const heard: string[] = [];
    second.platform.services.changes.on('publisher', (slug) => heard.push(slug));
    const em = first.platform.services.orm.em.fork() as EntityManager;
    await em
      .transactional(async (tx) => {
        await announceChange(tx as EntityManager, 'publisher', ['rolled-back']);
        throw new Error('the change fails');
      })
      .catch(() => undefined);
    await em.transactional(async (tx) => {
      await announceChange(tx as EntityManager, 'publisher', ['committed']);
      // Not yet: the notice waits for the commit.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(heard).toEqual([]);
    });
    for (let waited = 0; heard.length === 0 && waited < 3000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(heard).toEqual(['committed']);
  });

  it('a replica whose listener was cut off forgets every cached publisher, since it may have missed notices', async () => {
    const agent = await paidCaller();
    const publisher = await echoPublisher();
    const call = () => second.api.get(`/publishers/${publisher.slug}/echo/three`, { token: agent.api_key });
    expect((await call()).status).toBe(200);
    // Changed behind the platform's back: no notice, so only a resync can reveal it.
    const em = first.platform.services.orm.em.fork() as EntityManager;
    await em.execute('update market_publisher set is_active = false where slug = ?', [publisher.slug]);
    expect((await call()).status).toBe(200);
    // Other test files' databases live on the same server: only this database's listeners.
    const ours = 'from pg_stat_activity where application_name = ? and datname = current_database()';
    const listeners = () => em.execute(`select pid ${ours}`, [CHANGE_LISTENER_APPLICATION]);
    expect(await listeners()).toHaveLength(2);
    await em.execute(`select pg_terminate_backend(pid) ${ours}`, [CHANGE_LISTENER_APPLICATION]);
    // Paused behind its back: 403 publisher_inactive once the replica reads it again.
    expect(await statusOnce(403, call)).toBe(403);
    expect(await listeners()).toHaveLength(2);
  });
});
