import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ensureWalletAccount, ledgerAccountId, pickSystemAccount, SYSTEM_ACCOUNT_SHARDS, walletAccountId } from '../../shared/ledger/index.js';
import { registerAgent, signUpVerified, uniqueEmail } from '../support/accounts.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { checkLedgerAfterEach, verifiedAgent, verifyMailedLink } from '../support/wallet.js';

let t: TestPlatform;
beforeAll(async () => {
  t = await startTestPlatform();
});
afterAll(() => t.close());
checkLedgerAfterEach(() => t);

const balanceOf = async (token: string) => (await t.api.get('/wallet/balance', { token })).body.data.balance;

describe('referral farming is bounded', () => {
  const codeOf = async (agent: { api_key: string }) => (await t.api.get('/wallet/referral', { token: agent.api_key })).body.data.code as string;
  const apply = (agent: { api_key: string }, code: string, on = t) => on.api.post('/wallet/referral/apply', { referral_code: code }, { token: agent.api_key });

  it('a referral ring is refused and pays nothing, directly or through others', async () => {
    const [a, b, c] = [await verifiedAgent(t), await verifiedAgent(t), await verifiedAgent(t)];
    expect((await apply(b, await codeOf(a))).status).toBe(200);
    expect((await apply(c, await codeOf(b))).status).toBe(200);
    for (const code of [await codeOf(b), await codeOf(c)]) {
      const ring = await apply(a, code);
      expect(ring.status).toBe(400);
      expect(ring.body.error.code).toBe('referral_ring');
    }
    // a was paid for referring b, b for being referred and for referring c, c for being referred: nothing for the rings.
    expect([await balanceOf(a.api_key), await balanceOf(b.api_key), await balanceOf(c.api_key)]).toEqual(['1.00', '2.00', '1.00']);
  });

  it('two accounts applying each other’s codes at once: one of them is refused', async () => {
    const [a, b] = [await verifiedAgent(t), await verifiedAgent(t)];
    const [codeA, codeB] = [await codeOf(a), await codeOf(b)];
    const answers = await Promise.all([apply(a, codeB), apply(b, codeA)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
    expect(answers.find((answer) => answer.status === 400)!.body.error.code).toBe('referral_ring');
    expect([await balanceOf(a.api_key), await balanceOf(b.api_key)]).toEqual(['1.00', '1.00']);
  });

  it('a referrer is paid for at most REFERRAL_MAX_REWARDS_PER_REFERRER referrals; later ones are recorded, not paid', async () => {
    const capped = await startTestPlatform({ REFERRAL_MAX_REWARDS_PER_REFERRER: '1' }, { database: t.database });
    try {
      const referrer = await verifiedAgent(capped);
      const code = await codeOf(referrer);
      const [first, second] = [await verifiedAgent(capped), await verifiedAgent(capped)];
      expect((await apply(first, code, capped)).body.data).toMatchObject({ applied: true, rewarded: true });
      expect((await apply(second, code, capped)).body.data).toMatchObject({ applied: true, rewarded: false });
      expect([await balanceOf(referrer.api_key), await balanceOf(first.api_key), await balanceOf(second.api_key)]).toEqual(['1.00', '1.00', '0.00']);
    } finally {
      await capped.close();
    }
  });

  it('the cap holds when referrals race: two applied at once with one reward left, exactly one is paid', async () => {
    const capped = await startTestPlatform({ REFERRAL_MAX_REWARDS_PER_REFERRER: '1' }, { database: t.database });
    try {
      const referrer = await verifiedAgent(capped);
      const code = await codeOf(referrer);
      const [first, second] = [await verifiedAgent(capped), await verifiedAgent(capped)];
      const answers = await Promise.all([apply(first, code, capped), apply(second, code, capped)]);
      expect(answers.map((answer) => answer.body.data?.rewarded).sort()).toEqual([false, true]);
      expect(await balanceOf(referrer.api_key)).toBe('1.00');
      expect([await balanceOf(first.api_key), await balanceOf(second.api_key)].sort()).toEqual(['0.00', '1.00']);
    } finally {
      await capped.close();
    }
  });
});

describe('referrals', () => {
  it('both sides get REFERRAL_BONUS_USD when the referred account verifies its e-mail', async () => {
    const referrer = await verifiedAgent(t);
    const summary = await t.api.get('/wallet/referral', { token: referrer.api_key });
    expect(summary.body.data).toEqual({ code: expect.stringMatching(/^[A-Z0-9]{8}$/), joined: 0, earned: '0.00', bonus: '1.00' });
    const code = summary.body.data.code;
    expect((await t.api.get('/wallet/referral', { token: referrer.api_key })).body.data.code).toBe(code);

    const email = uniqueEmail('referred');
    const referred = await registerAgent(t, { email });
    const applied = await t.api.post('/wallet/referral/apply', { referral_code: code.toLowerCase() }, { token: referred.api_key });
    expect(applied.body.data).toEqual({ applied: true, rewarded: false, bonus: '1.00' });
    expect(await balanceOf(referrer.api_key)).toBe('0.00');

    await verifyMailedLink(t, email);
    expect(await balanceOf(referred.api_key)).toBe('1.00');
    expect(await balanceOf(referrer.api_key)).toBe('1.00');
    expect((await t.api.get('/wallet/referral', { token: referrer.api_key })).body.data).toMatchObject({ joined: 1, earned: '1.00' });
    const again = await t.api.post('/wallet/referral/apply', { referral_code: code }, { token: referred.api_key });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('referral_already_applied');
  });

  it('an already verified account is rewarded at once', async () => {
    const referrer = await verifiedAgent(t);
    const code = (await t.api.get('/wallet/referral', { token: referrer.api_key })).body.data.code;
    const user = await signUpVerified(t);
    const applied = await t.api.post('/wallet/referral/apply', { referral_code: code }, { token: user.accessToken });
    expect(applied.body.data).toMatchObject({ rewarded: true });
    expect(await balanceOf(user.accessToken)).toBe('1.00');
    expect(await balanceOf(referrer.api_key)).toBe('1.00');
  });

  it('a verification that commits while the apply is in flight (its identity read before) still gets both sides paid', async () => {
    const referrer = await verifiedAgent(t);
    const code = (await t.api.get('/wallet/referral', { token: referrer.api_key })).body.data.code;
    const email = uniqueEmail('raced');
    const referred = await registerAgent(t, { email });
    // The key's identity is read (and cached) as unverified; then the verification commits, finding no referral to reward yet.
    expect((await t.api.get('/auth/me', { token: referred.api_key })).body.data.email_verified).toBe(false);
    await t.platform.services.orm.em.getConnection().execute(`update account_user set email_verified = true where email = ?`, [email]);
    const applied = await t.api.post('/wallet/referral/apply', { referral_code: code }, { token: referred.api_key });
    expect(applied.body.data).toMatchObject({ applied: true, rewarded: true });
    expect(await balanceOf(referred.api_key)).toBe('1.00');
    expect(await balanceOf(referrer.api_key)).toBe('1.00');
  });

  it('a reward racing a transfer that holds one of its accounts waits, instead of deadlocking into a 500', async () => {
    const em = t.platform.services.orm.em.fork() as EntityManager;
    // A referrer whose wallet is ordered after several promotions shards, then a referred account
    // whose credit comes from one of those, other than the referrer credit's shard: the order in
    // which a racing transfer locks them (by id, as every ledger statement does) then deadlocks
    // with credits made one by one.
    const shards = Array.from({ length: SYSTEM_ACCOUNT_SHARDS }, (_, shard) => ledgerAccountId({ kind: 'promotions', shard }));
    let referrer: Awaited<ReturnType<typeof verifiedAgent>> | undefined;
    for (let tries = 0; !referrer && tries < 20; tries++) {
      const agent = await verifiedAgent(t);
      if (shards.filter((shard) => shard < walletAccountId(agent.id)).length >= 4) referrer = agent;
    }
    const code = (await t.api.get('/wallet/referral', { token: referrer!.api_key })).body.data.code;
    const referrerWallet = await ensureWalletAccount(em, referrer!.id);
    let referred: { api_key: string; email: string; shard: string } | undefined;
    for (let tries = 0; !referred && tries < 60; tries++) {
      const email = uniqueEmail('deadlock');
      const agent = await registerAgent(t, { email });
      const shard = await pickSystemAccount(em, 'promotions', { shardKey: `referral:${agent.id}:referred` });
      const referrerShard = await pickSystemAccount(em, 'promotions', { shardKey: `referral:${agent.id}:referrer` });
      if (shard < referrerWallet && shard !== referrerShard) referred = { api_key: agent.api_key, email, shard };
    }
    expect(referred).toBeDefined();
    const { api_key, email, shard } = referred!;
    expect((await t.api.post('/wallet/referral/apply', { referral_code: code }, { token: api_key })).body.data.rewarded).toBe(false);
    const token = await t.mailbox.waitForToken(email, 'verify-email');
    const lockedBehindUs = async (db: EntityManager) => {
      const [{ waiting }] = await db.execute(`select count(*)::int as waiting from pg_locks where not granted and database = (select oid from pg_database where datname = current_database())`);
      return waiting > 0;
    };
    let verifying: ReturnType<typeof t.api.post> | undefined;
    await (t.platform.services.orm.em.fork() as EntityManager).transactional(async (tx) => {
      await tx.execute(`select id from ledger_account where id = ? for update`, [shard]);
      verifying = t.api.post('/auth/verify-email', { token });
      for (let waited = 0; !(await lockedBehindUs(em)) && waited < 100; waited++) await new Promise((resolve) => setTimeout(resolve, 20));
      // Then the racing transfer takes the referrer's wallet, as a credit to it through that shard would (by id order).
      await tx.execute(`select id from ledger_account where id = ? for update`, [referrerWallet]);
      const pending = Symbol('pending');
      expect(await Promise.race([verifying, new Promise((resolve) => setTimeout(() => resolve(pending), 300))])).toBe(pending);
    });
    expect((await verifying!).status).toBe(200);
    expect(await balanceOf(api_key)).toBe('1.00');
    expect(await balanceOf(referrer!.api_key)).toBe('1.00');
  });

  it('refuses one\'s own code (400) and unknown codes (404)', async () => {
    const agent = await verifiedAgent(t);
    const code = (await t.api.get('/wallet/referral', { token: agent.api_key })).body.data.code;
    const own = await t.api.post('/wallet/referral/apply', { referral_code: code }, { token: agent.api_key });
    expect([own.status, own.body.error.code]).toEqual([400, 'own_referral_code']);
    const unknown = await t.api.post('/wallet/referral/apply', { referral_code: 'ZZZZZZZZ' }, { token: agent.api_key });
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'referral_code_not_found']);
    const garbage = await t.api.post('/wallet/referral/apply', { referral_code: "'; drop table x" }, { token: agent.api_key });
    expect(garbage.status).toBe(404);
  });
});

describe('referral rewards on a small connection pool', () => {
  it('more referred accounts verifying at once than the pool has connections all get paid: no transaction waits for a second connection', async () => {
    const small = await startTestPlatform({ DB_POOL_MAX: '3' });
    try {
      const referrer = await verifiedAgent(small);
      const code = (await small.api.get('/wallet/referral', { token: referrer.api_key })).body.data.code;
      const emails = Array.from({ length: 8 }, (_, i) => uniqueEmail(`pool-${i}`));
      const agents = [];
      for (const email of emails) {
        const agent = await registerAgent(small, { email });
        expect((await small.api.post('/wallet/referral/apply', { referral_code: code }, { token: agent.api_key })).body.data.rewarded).toBe(false);
        agents.push(agent);
      }
      const tokens = await Promise.all(emails.map((email) => small.mailbox.waitForToken(email, 'verify-email')));
      let timer: NodeJS.Timeout | undefined;
      const stuck = new Promise<'stuck'>((resolve) => (timer = setTimeout(() => resolve('stuck'), 20_000)));
      const verified = await Promise.race([Promise.all(tokens.map((token) => small.api.post('/auth/verify-email', { token }))), stuck]);
      clearTimeout(timer);
      expect(verified).not.toBe('stuck');
      expect((verified as { status: number }[]).map((response) => response.status)).toEqual(Array(8).fill(200));
      expect((await small.api.get('/wallet/balance', { token: referrer.api_key })).body.data.balance).toBe('8.00');
      for (const agent of agents) expect((await small.api.get('/wallet/balance', { token: agent.api_key })).body.data.balance).toBe('1.00');
    } finally {
      await small.close();
    }
  }, 60_000);
});

describe('recovery', () => {
  it('a recovery code rotates the API key and the code; the old ones stop working', async () => {
    const agent = await verifiedAgent(t);
    const mismatch = await t.api.post('/wallet/recovery', { email: 'someone-else@example.test' }, { token: agent.api_key });
    expect([mismatch.status, mismatch.body.error.code]).toEqual([400, 'email_mismatch']);
    const first = await t.api.post('/wallet/recovery', { email: agent.email.toUpperCase() }, { token: agent.api_key });
    expect(first.body.data.recovery_code).toMatch(/^[A-Z0-9]{24}$/);
    const second = await t.api.post('/wallet/recovery', { email: agent.email }, { token: agent.api_key });
    const code = second.body.data.recovery_code;
    expect(code).not.toBe(first.body.data.recovery_code);

    const replaced = await t.api.post('/wallet/recover', { recovery_code: first.body.data.recovery_code });
    expect([replaced.status, replaced.body.error.code]).toEqual([401, 'invalid_recovery_code']);

    const recovered = await t.api.post('/wallet/recover', { recovery_code: code });
    expect(recovered.status).toBe(200);
    expect(recovered.body.data).toEqual({ user_id: agent.id, api_key: expect.stringMatching(/^ak_/), recovery_code: expect.stringMatching(/^[A-Z0-9]{24}$/) });
    expect((await t.api.get('/auth/me', { token: agent.api_key })).status).toBe(401);
    const me = await t.api.get('/auth/me', { token: recovered.body.data.api_key });
    expect(me.body.data.id).toBe(agent.id);
    expect((await t.api.post('/wallet/recover', { recovery_code: code })).status).toBe(401);
    const next = await t.api.post('/wallet/recover', { recovery_code: recovered.body.data.recovery_code });
    expect(next.status).toBe(200);
  });

  it('refuses a malformed code with 400', async () => {
    const response = await t.api.post('/wallet/recover', { recovery_code: 'abc' });
    expect([response.status, response.body.error.code]).toEqual([400, 'invalid_recovery_code']);
  });

  it('wrong codes are rate limited per address (429)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await t.api.post('/wallet/recover', { recovery_code: 'A'.repeat(24) })).status);
    expect(statuses).toContain(401);
    expect(statuses.at(-1)).toBe(429);
  });
});
