import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Changes to one project's data plane (branching, suspend, start, drop) run one at a time, across
 * every replica: a transaction-scoped advisory lock in the platform's database, held while the
 * data plane works. A branch's exclusive window on its parent can then never be reopened by a
 * start racing it.
 */
export function withProjectLock<T>(em: EntityManager, projectId: string, work: (tx: EntityManager) => Promise<T>): Promise<T> {
  return em.fork().transactional(async (tx) => {
    await tx.execute('select pg_advisory_xact_lock(hashtextextended(?, 24))', [`db_project:${projectId}`]);
    return work(tx);
  });
}
