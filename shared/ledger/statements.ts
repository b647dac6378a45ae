import type { EntityManager } from '@mikro-orm/postgresql';
import type { Pool } from 'pg';
import { sha256Hex } from '../crypto.js';

interface PreparedText {
  name: string;
  text: string;
}

const preparedTexts = new Map<string, PreparedText>();

/** `?` placeholders become `$n`; the name is derived from the text, so every process agrees on it. */
function preparedTextOf(sql: string): PreparedText {
  let prepared = preparedTexts.get(sql);
  if (!prepared) {
    let position = 0;
    const text = sql.replace(/\?/g, () => `$${++position}`);
    prepared = { name: `ledger_${sha256Hex(text).slice(0, 24)}`, text };
    preparedTexts.set(sql, prepared);
  }
  return prepared;
}

const pools = new WeakMap<object, Promise<Pool>>();

/** The driver's pool under an entity manager's connection (one per database). */
export function ledgerPool(em: EntityManager): Promise<Pool> {
  const connection = em.getConnection();
  let pool = pools.get(connection);
  if (!pool) {
    pool = connection.getNativeClient();
    pools.set(connection, pool);
  }
  return pool;
}

/**
 * Runs one ledger statement (`?` placeholders). Outside a transaction it goes to the driver's pool
 * as a named prepared statement: the paid path's reserve and post are then parsed and planned once
 * per connection instead of once per call, which is most of their cost in PostgreSQL. Inside the
 * caller's transaction it runs on that transaction's connection, as any other query.
 */
export async function runLedgerStatement(em: EntityManager, sql: string, params: unknown[]): Promise<Record<string, any>[]> {
  if (em.isInTransaction()) return em.execute(sql, params);
  return runPooledStatement(await ledgerPool(em), sql, params);
}

/** Runs one statement (`?` placeholders) on its own, as a named prepared statement on the pool. */
export async function runPooledStatement(pool: Pool, sql: string, params: unknown[]): Promise<Record<string, any>[]> {
  const result = await pool.query({ ...preparedTextOf(sql), values: params });
  return result.rows;
}
