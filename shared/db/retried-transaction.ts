import type { EntityManager } from '@mikro-orm/postgresql';
import { isRetryable } from '../ledger/errors.js';

const DEFAULT_ATTEMPTS = 3;

/**
 * A transaction run again when the database rolled it back for a deadlock or a serialization
 * failure: it changed nothing, so the caller gets an answer rather than a 500. For work whose
 * every effect is in the transaction (event handlers run inside it too).
 */
export async function retriedTransaction<T>(em: EntityManager, work: (tx: EntityManager) => Promise<T>, attempts = DEFAULT_ATTEMPTS): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await em.transactional(work);
    } catch (error) {
      if (!isRetryable(error) || attempt >= attempts) throw error;
    }
  }
}
