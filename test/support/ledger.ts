import 'reflect-metadata';
import { afterAll, beforeAll, expect } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { subgraphModules } from '../../gateway/subgraphs.js';
import { createOrm, migrate } from '../../shared/db/orm.js';
import { checkLedger, ensureWalletAccount, pickSystemAccount, transfer } from '../../shared/ledger/index.js';
import { createTestDatabase, type TestDatabase } from './database.js';
import { withInsertsRefused } from './database-faults.js';

/**
 * Enough connections for real races (dozens of statements in the database at once), while two
 * test files running side by side stay under PostgreSQL's default max_connections of 100.
 */
const LEDGER_TEST_POOL = 40;

/** A fresh migrated database with an ORM on it, for tests of the ledger itself. */
export async function openLedgerDatabase(): Promise<{ orm: MikroORM; em: () => EntityManager; close(): Promise<void> }> {
  const database: TestDatabase = await createTestDatabase();
  const orm = await createOrm(subgraphModules, { url: database.url, poolMax: LEDGER_TEST_POOL });
  await migrate(orm);
  return {
    orm,
    em: () => orm.em.fork() as EntityManager,
    async close() {
      await orm.close(true);
      await database.drop();
    },
  };
}

/** Run after every money test: money is conserved and every account equals the sum of its transfers. */
export async function expectLedgerBalanced(em: EntityManager): Promise<void> {
  const check = await checkLedger(em);
  expect({ ...check, postedSum: String(check.postedSum), pendingSum: String(check.pendingSum) }).toMatchObject({
    ok: true,
    postedSum: '0',
    pendingSum: '0',
    mismatched: [],
    overdrawn: [],
  });
}

/** A ledger database for one test file (opened before, checked and dropped after): `db()` gives it. */
export function useLedgerDatabase() {
  let db: Awaited<ReturnType<typeof openLedgerDatabase>>;
  beforeAll(async () => {
    db = await openLedgerDatabase();
  });
  afterAll(async () => {
    await expectLedgerBalanced(db.em());
    await db.close();
  });
  return () => db;
}

export const ledgerKey = () => `test:${randomUUID()}`;

/** The status and code a money operation failed with, or null when it succeeded. */
export const errorOf = async (work: Promise<unknown>) =>
  work.then(() => null, (error: any) => ({ status: error.status, code: error.code }));

/** A new user's wallet holding `micros` (a promotions bonus). */
export async function fundedWallet(em: EntityManager, micros: bigint): Promise<string> {
  const wallet = await ensureWalletAccount(em, randomUUID());
  if (micros > 0n) {
    await transfer(em, { idempotencyKey: ledgerKey(), debit: await pickSystemAccount(em, 'promotions'), credit: wallet, amount: micros, kind: 'bonus' });
  }
  return wallet;
}

/** Runs `work` while the database refuses to post any hold (a ledger that fails at the charge). */
export const withPostsRefused = <T>(em: EntityManager, work: () => Promise<T>): Promise<T> =>
  withInsertsRefused(em, { table: 'ledger_transfer', when: `new.type = 'post'` }, work);
