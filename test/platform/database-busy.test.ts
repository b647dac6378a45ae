import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { PASSWORD, signUpVerified, type SignedInUser } from '../support/accounts.js';
import { pino } from 'pino';

let t: TestPlatform;
let user: SignedInUser;
/** What the platform logged at warn and above, one JSON line each. */
const logged: string[] = [];
beforeAll(async () => {
  const log = pino({ level: 'warn' }, { write: (line: string) => void logged.push(line) });
  t = await startTestPlatform({ DB_POOL_MAX: '2', DB_POOL_ACQUIRE_TIMEOUT_MS: '300' }, { log });
  user = await signUpVerified(t);
});
afterAll(() => t.close());

/** Keeps every connection of the pool busy until the returned function is called. */
async function occupyThePool(connections: number): Promise<() => Promise<void>> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held = 0;
  let allHeld!: () => void;
  const holding = new Promise<void>((resolve) => (allHeld = resolve));
  const transactions = Array.from({ length: connections }, () =>
    t.platform.services.orm.em.fork().transactional(async (em) => {
      await em.execute('select 1');
      if (++held === connections) allHeld();
      await released;
    }),
  );
  await holding;
  return async () => {
    release();
    await Promise.all(transactions);
  };
}

describe('a database that hands out no connection in time', () => {
  it('answers 503 database_unavailable with Retry-After, on REST, GraphQL and /readyz, and recovers once connections free up', async () => {
    const free = await occupyThePool(2);
    try {
      const rest = await t.api.get('/organizations', { token: user.accessToken });
      expect([rest.status, rest.body.error?.code]).toEqual([503, 'database_unavailable']);
      expect(rest.headers.get('retry-after')).toBe('1');
      // Anonymous, so the failure is the resolver's rather than the identity lookup's.
      const graphql = await t.api.graphql('query { publishers { id } }', {});
      expect(graphql.body.errors?.[0]?.extensions).toMatchObject({ code: 'database_unavailable', status: 503 });
      expect((await t.api.get('/readyz')).status).toBe(503);
      // A write in a transaction, too (verify-email runs one).
      const login = await t.api.post('/auth/login', { email: user.email, password: PASSWORD });
      expect([login.status, login.body.error?.code]).toEqual([503, 'database_unavailable']);
    } finally {
      await free();
    }
    expect((await t.api.get('/organizations', { token: user.accessToken })).status).toBe(200);
    expect((await t.api.get('/readyz')).status).toBe(200);
  });

  it('is logged with its cause, on GraphQL (answered 200) as on REST, for the operator to see why', async () => {
    const free = await occupyThePool(2);
    try {
      logged.length = 0;
      const graphql = await t.api.graphql('query { publishers { id } }', {});
      expect(graphql.body.errors?.[0]?.extensions).toMatchObject({ code: 'database_unavailable' });
      expect(logged.some((line) => line.includes('timeout exceeded when trying to connect'))).toBe(true);
      logged.length = 0;
      const rest = await t.api.get('/organizations', { token: user.accessToken });
      expect(rest.status).toBe(503);
      expect(logged.some((line) => line.includes('timeout exceeded when trying to connect'))).toBe(true);
    } finally {
      await free();
    }
  });
});
