/**
 * A publisher's counters are written together (usage-counters.ts): total_queries,
 * unique_agents_served and total_revenue_atomic in one UPDATE. They are 64-bit: a busy publisher
 * passes 2^31 - 1 calls in weeks (25 days at 1,000 calls a second), after which a 32-bit counter
 * refused every write and the revenue counter stopped following the ledger.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../../shared/logger.js';
import { UsageCounters } from '../../subgraphs/marketplace/proxy/usage-counters.js';
import { openLedgerDatabase } from '../support/ledger.js';

let db: Awaited<ReturnType<typeof openLedgerDatabase>>;
beforeAll(async () => {
  db = await openLedgerDatabase();
});
afterAll(async () => {
  await db.close();
});

const quietLog = { error: () => undefined, warn: () => undefined, info: () => undefined, debug: () => undefined } as unknown as Logger;

/** A market_publisher row with every required column filled with a plain value of its type. */
async function insertPublisher(em: EntityManager): Promise<string> {
  const columns: { column_name: string; data_type: string; udt_name: string }[] = await em.execute(
    `select column_name, data_type, udt_name from information_schema.columns
     where table_name = 'market_publisher' and is_nullable = 'NO' and column_default is null`,
  );
  const id = randomUUID();
  const valueOf = (column: { column_name: string; data_type: string; udt_name: string }): unknown => {
    if (column.column_name === 'id') return id;
    if (column.column_name === 'slug') return `p-${id.slice(0, 8)}`;
    if (column.column_name === 'publisher_category') return 'integration';
    if (column.data_type === 'ARRAY') return '{}';
    if (column.udt_name === 'uuid') return randomUUID();
    if (column.udt_name === 'jsonb' || column.udt_name === 'json') return '{}';
    if (column.udt_name.startsWith('timestamp')) return new Date();
    if (column.udt_name === 'bool') return false;
    if (column.udt_name.startsWith('int') || column.udt_name === 'numeric') return 0;
    return 'x';
  };
  const names = columns.map((column) => `"${column.column_name}"`).join(', ');
  await em.execute(`insert into market_publisher (${names}) values (${columns.map(() => '?').join(', ')})`, columns.map(valueOf));
  return id;
}

describe('publisher usage counters', () => {
  it('keep counting, and keep the revenue in step with the ledger, past 2^31 - 1 queries', async () => {
    const em = db.em();
    const publisherId = await insertPublisher(em);
    await em.execute('update market_publisher set total_queries = 2147483647 where id = ?', [publisherId]);
    const counters = new UsageCounters(() => db.em(), quietLog);
    counters.record(publisherId, randomUUID(), 5_000n);
    await counters.flush();
    const [row] = await db.em().execute(
      'select total_queries::text as queries, unique_agents_served::text as agents, total_revenue_atomic_value::text as revenue from market_publisher where id = ?',
      [publisherId],
    );
    expect(row).toEqual({ queries: '2147483648', agents: '1', revenue: '5000' });
  });
});
