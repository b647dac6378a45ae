import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { buildClientSchema, getIntrospectionQuery, type GraphQLSchema } from 'graphql';
import pg from 'pg';
import { operationDigest, signInternalIdentity, type InternalCall } from '../../shared/auth/internal-token.js';
import { openSpentTokens } from '../../shared/auth/spent-tokens.js';
import { decodeJson, encodeJson } from '../../shared/json-codec.js';
import { registerAgent, uniqueEmail } from '../support/accounts.js';
import { organizationWithAdminKey } from '../support/organizations.js';
import { startTestPlatform } from '../support/platform.js';
import { createPublisher } from '../support/publishers.js';
import { describeRouteEquivalence } from '../support/route-equivalence.js';
import { SplitDeployment } from '../support/split-deployment.js';
import { verifiedAgent, verifyMailedLink } from '../support/wallet.js';

/**
 * The platform split as docker-compose.yml runs it: the gateway and every subgraph in its own
 * process (the wallet twice), on one database and Redis. One deployment serves every test here.
 */
let d: SplitDeployment;
let db: pg.Client;
let apiSchema: GraphQLSchema;
beforeAll(async () => {
  d = await SplitDeployment.start({ replicas: { wallet: 2 } });
  db = new pg.Client({ connectionString: d.database.url });
  await db.connect();
  const introspection = await d.api.graphql(getIntrospectionQuery(), {});
  apiSchema = buildClientSchema(introspection.body.data);
}, 300_000);
afterAll(async () => {
  await db?.end();
  await d?.close();
});

const balanceOf = async (token: string) => (await d.api.get('/wallet/balance', { token })).body.data.balance as string;
const referralCredits = async (userId: string) =>
  (await db.query(`select count(*)::int as n from ledger_transfer t join ledger_account a on a.id = t.credit_account_id where a.owner_id = $1 and t.kind = 'referral'`, [userId])).rows[0].n;

/** Reactions in another process come after their cause: wait (up to 30 s) until `read` says so. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let waited = 0; ; waited += 100) {
    const value = await read();
    if (done(value) || waited >= 30_000) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function referredPair() {
  const referrer = await verifiedAgent(d);
  const code = (await d.api.get('/wallet/referral', { token: referrer.api_key })).body.data.code;
  const email = uniqueEmail('referred');
  const referred = await registerAgent(d, { email });
  const applied = await d.api.post('/wallet/referral/apply', { referral_code: code }, { token: referred.api_key });
  expect(applied.body.data).toMatchObject({ applied: true, rewarded: false });
  return { referrer, referred, email };
}

describe('split mode: domain events reach the module that handles them, in whichever process it runs', () => {
  it('an agent verifying its address (accounts) receives the signup bonus (wallet)', async () => {
    const agent = await verifiedAgent(d);
    const claimed = await d.api.post('/wallet/bonus/signup', {}, { token: agent.api_key });
    expect(claimed.status).toBe(200);
    expect(await balanceOf(agent.api_key)).toBe('1.00');
  });

  it('a referral pays both sides once when the referred account verifies, though accounts and the two wallet replicas are other processes', async () => {
    const { referrer, referred, email } = await referredPair();
    await verifyMailedLink(d, email);
    expect(await eventually(() => balanceOf(referred.api_key), (balance) => balance === '1.00')).toBe('1.00');
    expect(await eventually(() => balanceOf(referrer.api_key), (balance) => balance === '1.00')).toBe('1.00');
    expect([await referralCredits(referrer.id), await referralCredits(referred.id)]).toEqual([1, 1]);
  });
});

describe('split mode: ports are answered by their module wherever it runs', () => {
  it('the marketplace refuses a plain member who tries to manage the organization’s publisher (the role comes from accounts)', async () => {
    const { owner, admin, key } = await organizationWithAdminKey(d);
    const record = await createPublisher(d, owner.accessToken);
    expect((await d.api.patch(`/publishers/${record.slug}`, { description: 'by an admin' }, { token: key })).status).toBe(200);

    await db.query(`update account_membership set role = 'member' where user_id = $1 and organization_id = $2`, [admin.id, owner.organizationId]);
    const changed = await d.api.patch(`/publishers/${record.slug}`, { wallet_address: '0x2222222222222222222222222222222222222222' }, { token: key });
    expect([changed.status, changed.body.error.code]).toEqual([403, 'organization_admin_required']);
  });

  it('wallet recovery rotates the API key through accounts: the old key stops working, the new one works', async () => {
    const agent = await verifiedAgent(d);
    const issued = await d.api.post('/wallet/recovery', { email: agent.email }, { token: agent.api_key });
    expect(issued.status).toBe(200);
    const recovered = await d.api.post('/wallet/recover', { recovery_code: issued.body.data.recovery_code });
    expect(recovered.status).toBe(200);
    const newKey = recovered.body.data.api_key as string;
    expect((await d.api.get('/auth/me', { token: newKey })).status).toBe(200);
    expect((await d.api.get('/auth/me', { token: agent.api_key })).status).toBe(401);
  });

  it('a port is asked only by the platform’s own processes, with a token made for that port and those arguments, once', async () => {
    const url = d.subgraphUrl('accounts').replace(/\/graphql$/, '/internal/ports/organizationRole');
    const body = encodeJson([ '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002' ]);
    const ask = (headers: Record<string, string>, sent = body) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: sent });
    expect((await ask({})).status).toBe(401);
    const token = await signInternalIdentity(d.secrets.INTERNAL_SECRET, { subgraph: 'accounts/ports', requestId: 'r', identity: null, ip: null, operation: operationDigest('port:organizationRole', body) });
    expect((await ask({ 'x-internal-identity': token }, encodeJson(['other', 'arguments']))).status).toBe(401);
    const answered = await ask({ 'x-internal-identity': token });
    expect([answered.status, decodeJson(await answered.text())]).toEqual([200, { result: null }]);
    expect((await ask({ 'x-internal-identity': token })).status).toBe(401);
  });
});

describe('split mode: gateway tokens', () => {
  const ME = '{ me { id } }';
  const WALLET = '{ wallet { balance } }';
  const ask = (url: string, headers: Record<string, string>, query: string) =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query }) }).then((r) => r.json() as Promise<any>);
  const gatewayToken = (call: Partial<InternalCall> = {}, secret = d.secrets.INTERNAL_SECRET) =>
    signInternalIdentity(secret, { subgraph: 'accounts', requestId: 'r-1', identity: null, ip: null, operation: operationDigest(ME, {}), ...call });

  it('a subgraph refuses anyone but the gateway, and a token made for another subgraph or operation', async () => {
    const accounts = d.subgraphUrl('accounts');
    expect((await ask(accounts, {}, ME)).errors[0].extensions.code).toBe('gateway_token_required');
    const forged = await gatewayToken({}, 'another secret that is long enough to sign');
    expect((await ask(accounts, { 'x-internal-identity': forged }, ME)).errors[0].extensions.code).toBe('invalid_gateway_token');
    expect((await ask(accounts, { 'x-internal-identity': await gatewayToken({ subgraph: 'wallet' }) }, ME)).errors[0].extensions.code).toBe('invalid_gateway_token');
    expect((await ask(accounts, { 'x-internal-identity': await gatewayToken() }, '{ organizations { id } }')).errors[0].extensions.code).toBe('invalid_gateway_token');
  });

  it('a gateway token replayed to the other replica of the same subgraph is refused (the spent record is in Redis)', async () => {
    const token = await gatewayToken({ subgraph: 'wallet', operation: operationDigest(WALLET, {}) });
    expect((await ask(d.subgraphUrl('wallet', 1), { 'x-internal-identity': token }, WALLET)).errors[0].extensions.code).toBe('unauthorized');
    expect((await ask(d.subgraphUrl('wallet', 2), { 'x-internal-identity': token }, WALLET)).errors[0].extensions.code).toBe('invalid_gateway_token');
    expect((await ask(d.subgraphUrl('wallet', 1), { 'x-internal-identity': token }, WALLET)).errors[0].extensions.code).toBe('invalid_gateway_token');
  });

  it('each subgraph process serves its own metrics, behind the metrics token', async () => {
    const metricsUrl = d.subgraphUrl('accounts').replace(/\/graphql$/, '/metrics');
    expect((await fetch(metricsUrl)).status).toBe(401);
    const scraped = await fetch(metricsUrl, { headers: { authorization: `Bearer ${d.metricsToken}` } });
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toMatch(/^acp_process_cpu_seconds_total /m);
  });
});

describe('split mode: the route table', () => {
  describeRouteEquivalence(() => ({ api: d.api, mailbox: d.mailbox, apiSchema }));
});

describe('split mode: a subgraph that dies', () => {
  it('killed while its events are pending, delivers them after restart, exactly once (two replicas racing for them)', async () => {
    const { referrer, referred, email } = await referredPair();
    await d.kill('wallet');
    await d.kill('wallet#2');
    await verifyMailedLink(d, email);
    const pending = await db.query(
      `select d.event_id from outbox_delivery d join outbox_event e on e.id = d.event_id where d.consumer = 'wallet' and e.type = 'account.email_verified' and e.payload->>'userId' = $1`,
      [referred.id],
    );
    expect(pending.rows).toHaveLength(1);
    await Promise.all([d.startProcess('wallet'), d.startProcess('wallet#2')]);
    expect(await eventually(() => balanceOf(referred.api_key), (balance) => balance === '1.00')).toBe('1.00');
    expect(await balanceOf(referrer.api_key)).toBe('1.00');
    expect([await referralCredits(referrer.id), await referralCredits(referred.id)]).toEqual([1, 1]);
    const eventId = pending.rows[0].event_id;
    expect((await db.query(`select count(*)::int as n from outbox_delivery where event_id = $1`, [eventId])).rows[0].n).toBe(0);
    expect((await db.query(`select consumer from outbox_processed where event_id = $1`, [eventId])).rows).toEqual([{ consumer: 'wallet' }]);
  }, 180_000);
});

describe('split mode settings', () => {
  it('a SUBGRAPH_<NAME>_URL naming no subgraph (a typo) stops the start, instead of leaving that subgraph in-process', async () => {
    await expect(startTestPlatform({ SUBGRAPH_ACOUNTS_URL: 'http://127.0.0.1:1/graphql' }, { database: d.database })).rejects.toThrow(/SUBGRAPH_ACOUNTS_URL: no such subgraph/);
  });

  it('without Redis, a second process of the same subgraph on the same database is refused at start, naming REDIS_URL', async () => {
    const first = await openSpentTokens('databases', undefined, d.database.url);
    try {
      await expect(openSpentTokens('databases', undefined, d.database.url)).rejects.toThrow(/Another databases subgraph process already runs on this database and REDIS_URL is not set/);
    } finally {
      await first.close();
    }
    const again = await openSpentTokens('databases', undefined, d.database.url);
    await again.close();
  });
});
