import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { registerAgent, signUpVerified } from '../support/accounts.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { checkLedgerAfterEach } from '../support/wallet.js';

let t: TestPlatform;
beforeAll(async () => {
  t = await startTestPlatform({ DEV_CREDITS_USD: '5.00' });
});
afterAll(() => t.close());
checkLedgerAfterEach(() => t);

const grant = (apiKey: string) => t.api.post('/wallet/dev-credits', undefined, { token: apiKey });

describe('development credits', () => {
  it('give an agent DEV_CREDITS_USD once per account and UTC day, booked from the development grants account', async () => {
    const agent = await registerAgent(t);
    const first = await grant(agent.api_key);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ type: 'development_credit', amount: '5.00', balance: '5.00' });
    expect(await grant(agent.api_key)).toMatchObject({ status: 409, body: { error: { code: 'already_granted_today' } } });
    const [debited] = await t.platform.services.orm.em.fork().getConnection().execute(
      'select a.kind from ledger_transfer t join ledger_account a on a.id = t.debit_account_id where t.id = ?',
      [first.body.data.transaction_id],
    );
    expect(debited.kind).toBe('development_grants');
    const transactions = (await t.api.get('/wallet/transactions', { token: agent.api_key })).body.data;
    expect(transactions).toEqual([expect.objectContaining({ type: 'development_credit', direction: 'credit', amount: '5.00' })]);
  });

  it('pay once when two grants race for the same account', async () => {
    const agent = await registerAgent(t);
    const answers = await Promise.all([grant(agent.api_key), grant(agent.api_key), grant(agent.api_key)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409, 409]);
    expect((await t.api.get('/wallet/balance', { token: agent.api_key })).body.data.balance).toBe('5.00');
  });

  it('are the GraphQL mutation grantDevelopmentCredits too', async () => {
    const agent = await registerAgent(t);
    const answer = await t.api.graphql('mutation { grantDevelopmentCredits { type amount balance } }', {}, { token: agent.api_key });
    expect(answer.body).toEqual({ data: { grantDevelopmentCredits: { type: 'development_credit', amount: '5.00', balance: '5.00' } } });
  });

  it('need a caller; a person signed in (so verified) gets them too', async () => {
    expect(await t.api.post('/wallet/dev-credits')).toMatchObject({ status: 401, body: { error: { code: 'unauthorized' } } });
    const person = await signUpVerified(t);
    expect(await grant(person.accessToken)).toMatchObject({ status: 200, body: { data: { amount: '5.00' } } });
  });
});

describe('development credits in production', () => {
  it('are refused with 403 not_available_in_production', async () => {
    const production = await startTestPlatform(
      { NODE_ENV: 'production', JWT_SECRET: 'j'.repeat(40), INTERNAL_SECRET: 'i'.repeat(40), SECRETS_KEY: 'ab'.repeat(32) },
      { database: t.database },
    );
    try {
      const agent = await registerAgent(production);
      expect(await production.api.post('/wallet/dev-credits', undefined, { token: agent.api_key })).toMatchObject({
        status: 403,
        body: { error: { code: 'not_available_in_production' } },
      });
    } finally {
      await production.close();
    }
  });
});

describe('a first development start', () => {
  it('logs one ready agent API key holding development credits, and where mails are written; a restart does not make another', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'acp-first-start-'));
    const lines: any[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const start = () => startTestPlatform({ NODE_ENV: 'development', DATA_DIR: dataDir }, { database: t.database, log });
    try {
      const first = await start();
      await first.close();
      const ready = lines.filter((line) => line.developmentApiKey);
      expect(ready).toHaveLength(1);
      expect(lines).toContainEqual(expect.objectContaining({ mailDir: path.join(dataDir, 'mail') }));
      const second = await start();
      try {
        expect(lines.filter((line) => line.developmentApiKey)).toHaveLength(1);
        const balance = await second.api.get('/wallet/balance', { token: ready[0].developmentApiKey });
        expect(balance.body.data).toMatchObject({ balance: '5.00' });
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
