import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  checkLedger,
  ensureWalletAccount,
  getAccountBalance,
  pickSystemAccount,
  transfer,
} from '../../../shared/ledger/index.js';
import type { BenchRow, BenchScenario } from '../scenario.js';

const CONCURRENCY = 16;
const DEBITS = 4_000;
const DEBIT = 1_000n;

type Em = () => EntityManager;

async function fund(em: EntityManager, wallet: string, amount: bigint) {
  await transfer(em, { idempotencyKey: `bench-fund:${randomUUID()}`, debit: await pickSystemAccount(em, 'promotions'), credit: wallet, amount, kind: 'bonus' });
}

/** Fires `DEBITS` charges from CONCURRENCY workers, each charge to a random revenue shard, and times them. */
async function runDebits(em: Em, walletFor: (index: number) => string) {
  let next = 0;
  let succeeded = 0;
  let refused = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      const db = em();
      while (next < DEBITS) {
        const index = next++;
        const idempotencyKey = `bench-debit:${randomUUID()}`;
        try {
          await transfer(db, {
            idempotencyKey,
            debit: walletFor(index),
            credit: await pickSystemAccount(db, 'platform_revenue', { shardKey: idempotencyKey }),
            amount: DEBIT,
            kind: 'charge',
          });
          succeeded++;
        } catch (error: any) {
          if (error?.code !== 'insufficient_balance') throw error;
          refused++;
        }
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { succeeded, refused, perSecond: Math.round(DEBITS / seconds) };
}

/** Debits per second through the ledger itself (the paid proxy's money path), spread over 1,000 wallets and on one hot wallet. */
export const ledgerScenario: BenchScenario = {
  name: 'ledger',
  async run({ services }) {
    const em: Em = () => services.orm.em.fork() as EntityManager;
    const setup = em();
    const wallets: string[] = [];
    for (let i = 0; i < 1_000; i++) {
      const wallet = await ensureWalletAccount(setup, randomUUID());
      await fund(setup, wallet, 10n * DEBIT);
      wallets.push(wallet);
    }
    const spread = await runDebits(em, (index) => wallets[index % wallets.length]!);

    const hot = await ensureWalletAccount(setup, randomUUID());
    const funded = BigInt(DEBITS) * DEBIT - 500n * DEBIT;
    await fund(setup, hot, funded);
    const single = await runDebits(em, () => hot);
    const final = (await getAccountBalance(setup, hot)).posted;
    const expected = funded - BigInt(single.succeeded) * DEBIT;
    const check = await checkLedger(setup);

    const rows: BenchRow[] = [
      { scenario: 'ledger', case: `debits, 1,000 wallets, ${CONCURRENCY} concurrent`, figures: { 'debits/s': spread.perSecond, debits: spread.succeeded } },
      {
        scenario: 'ledger',
        case: `debits, one hot wallet, ${CONCURRENCY} concurrent`,
        figures: {
          'debits/s': single.perSecond,
          succeeded: single.succeeded,
          refused: single.refused,
          'final balance exact': final === expected && final === 0n ? 'yes' : `NO (${final} vs ${expected})`,
          'ledger invariant': check.ok ? 'ok' : 'BROKEN',
        },
      },
    ];
    return rows;
  },
};
