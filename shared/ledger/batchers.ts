import type { EntityManager } from '@mikro-orm/postgresql';
import type { Pool } from 'pg';
import { postBatch, type PostItem } from './batched-posts.js';
import { reserveBatch, type ReserveItem } from './batched-reserves.js';
import { StatementBatcher, type BatchStats } from './batcher.js';
import { isUniqueViolation } from './errors.js';
import { ledgerPool } from './statements.js';
import type { LedgerTransfer } from './transfer-record.js';

/** The paid path's two statements, group-committed per database (see StatementBatcher). */
export interface LedgerBatchers {
  reserves: StatementBatcher<ReserveItem, LedgerTransfer>;
  posts: StatementBatcher<PostItem, LedgerTransfer>;
  /** Where failed batch statements are reported (set by reportLedgerBatchFailures). */
  report: BatchFailureReporter | null;
}

export type BatchFailureReporter = (failure: {
  statement: 'reserves' | 'posts';
  items: number;
  error: unknown;
  /** A duplicate key: a client retry racing its own first attempt, answered as a replay. Expected. */
  racingReplay: boolean;
}) => void;

const MAX_BATCH = 100;
/** One statement of each kind at a time per process: measured best on 2 cores (larger batches, fewer wake-ups). */
const MAX_IN_FLIGHT = 1;
/** A statement running longer than this (blocked on a lock) lets the next batch go. */
const STALL_MS = 50;

const batchersByPool = new WeakMap<Pool, LedgerBatchers>();

export async function ledgerBatchers(em: EntityManager): Promise<LedgerBatchers> {
  const pool = await ledgerPool(em);
  let batchers = batchersByPool.get(pool);
  if (!batchers) {
    const options = (statement: 'reserves' | 'posts') => ({
      maxBatch: MAX_BATCH,
      maxInFlight: MAX_IN_FLIGHT,
      stallMs: STALL_MS,
      onFailure: (error: unknown, items: number) => created.report?.({ statement, items, error, racingReplay: isUniqueViolation(error) }),
    });
    const created: LedgerBatchers = {
      reserves: new StatementBatcher((items) => reserveBatch(pool, items), options('reserves')),
      posts: new StatementBatcher((items) => postBatch(pool, items), options('posts')),
      report: null,
    };
    batchersByPool.set(pool, (batchers = created));
  }
  return batchers;
}

/**
 * A failed batch costs nothing in money (it rolled back whole and its items ran alone). Apart from
 * a racing replay it should not happen: a deadlock or a bug worth seeing in the logs.
 */
export async function reportLedgerBatchFailures(em: EntityManager, report: BatchFailureReporter | null): Promise<void> {
  (await ledgerBatchers(em)).report = report;
}

/** How the batches went so far (for the bench and tests). */
export async function ledgerBatchStats(em: EntityManager): Promise<{ reserves: BatchStats; posts: BatchStats }> {
  const batchers = await ledgerBatchers(em);
  return { reserves: { ...batchers.reserves.stats }, posts: { ...batchers.posts.stats } };
}
