import pg from 'pg';
import type { MikroORM } from '@mikro-orm/postgresql';
import { migrate } from './orm.js';

/** Arbitrary constant: every process that migrates this database takes the same advisory lock. */
const MIGRATION_LOCK_KEY = 724_311_901;

/**
 * Applies pending migrations; when several processes start at once (split mode, replicas) the
 * session-level advisory lock, held on one dedicated connection, lets exactly one apply them.
 */
export async function migrateWithLock(orm: MikroORM, url: string): Promise<string[]> {
  const lock = new pg.Client({ connectionString: url });
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    return await migrate(orm);
  } finally {
    await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await lock.end();
  }
}
