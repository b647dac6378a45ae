import type { EntityManager } from '@mikro-orm/postgresql';
import type { Pool } from 'pg';
import { postBatch, type PostItem } from './batched-posts.js';
import { reserveBatch, type ReserveItem } from './batched-reserves.js';
import { StatementBatcher, type BatchStats } from './batcher.js';
import { ledgerPool } from './statements.js';
import type { LedgerTransfer } from './transfer-record.js';

/** The paid path's two statements, group-committed per database (see StatementBatcher). */
export interface LedgerBatchers {
  reserves: StatementBatcher<ReserveItem, LedgerTransfer>;
  posts: StatementBatcher<PostItem, LedgerTransfer>;
}

const MAX_BATCH = 100;
/** Two batches in the database at once: one is being executed while the next is sent. */
const MAX_IN_FLIGHT = 2;

const batchersByPool = new WeakMap<Pool, LedgerBatchers>();

export async function ledgerBatchers(em: EntityManager): Promise<LedgerBatchers> {
  const pool = await ledgerPool(em);
  let batchers = batchersByPool.get(pool);
  if (!batchers) {
    const options = { maxBatch: MAX_BATCH, maxInFlight: MAX_IN_FLIGHT };
    batchers = {
      reserves: new StatementBatcher((items) => reserveBatch(pool, items), options),
      posts: new StatementBatcher((items) => postBatch(pool, items), options),
    };
    batchersByPool.set(pool, batchers);
  }
  return batchers;
}

/** How the batches went so far (for the bench and tests). */
export async function ledgerBatchStats(em: EntityManager): Promise<{ reserves: BatchStats; posts: BatchStats }> {
  const batchers = await ledgerBatchers(em);
  return { reserves: { ...batchers.reserves.stats }, posts: { ...batchers.posts.stats } };
}
