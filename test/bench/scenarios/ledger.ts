import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  checkLedger,
  ensureWalletAccount,
  getAccountBalance,
  ledgerBatchStats,
  pickSystemAccount,
  transfer,
} from '../../../shared/ledger/index.js';
import { captureCallCharge, holdCallCharge } from '../../../subgraphs/marketplace/proxy/charging.js';
import type { CallPrice } from '../../../subgraphs/marketplace/services/pricing.js';
import type { Logger } from '../../../shared/logger.js';
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

const PAID_CALLERS = 50;

/**
 * The paid proxy's money path alone (its own holdCallCharge and captureCallCharge): a hold, then
 * its post with the gateway fee, from PAID_CALLERS concurrent callers, each on its own wallet.
 * Outside a transaction these are group-committed; the figures include the batch sizes that formed.
 */
async function runPaidCharges(em: Em, wallets: { userId: string; wallet: string }[], log: Logger) {
  const publisherId = randomUUID();
  const price: CallPrice = { base: DEBIT - DEBIT / 50n, markup: 0n, fee: DEBIT / 50n, total: DEBIT, minimumApplied: false };
  const before = await ledgerBatchStats(em());
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    wallets.slice(0, PAID_CALLERS).map(async ({ userId }) => {
      const db = em();
      while (next < DEBITS) {
        next++;
        const hold = await holdCallCharge(db, { callId: randomUUID(), userId, publisherId, amount: DEBIT, metadata: { bench: true } });
        await captureCallCharge(db, hold, price, { bench: true }, log);
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const after = await ledgerBatchStats(em());
  const meanBatch = (kind: 'reserves' | 'posts') =>
    Math.round(((after[kind].settled - before[kind].settled) / Math.max(1, after[kind].batches - before[kind].batches)) * 10) / 10;
  return { perSecond: Math.round(DEBITS / seconds), holdBatch: meanBatch('reserves'), postBatch: meanBatch('posts') };
}

/** Debits per second through the ledger itself (the paid proxy's money path), spread over 1,000 wallets and on one hot wallet. */
export const ledgerScenario: BenchScenario = {
  name: 'ledger',
  async run({ services }) {
    const em: Em = () => services.orm.em.fork() as EntityManager;
    const setup = em();
    const owners: { userId: string; wallet: string }[] = [];
    for (let i = 0; i < 1_000; i++) {
      const userId = randomUUID();
      const wallet = await ensureWalletAccount(setup, userId);
      await fund(setup, wallet, 10n * DEBIT);
      owners.push({ userId, wallet });
    }
    const spread = await runDebits(em, (index) => owners[index % owners.length]!.wallet);
    for (const { wallet } of owners.slice(0, PAID_CALLERS)) await fund(setup, wallet, BigInt(DEBITS) * DEBIT);
    const paid = await runPaidCharges(em, owners, services.log);

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
        case: `paid-call hold + post with fee, ${PAID_CALLERS} callers`,
        figures: { 'calls/s': paid.perSecond, 'mean hold batch': paid.holdBatch, 'mean post batch': paid.postBatch },
      },
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
