import type pg from 'pg';
import type { RequestContext } from '../../../shared/context.js';
import { badRequest } from '../../../shared/errors.js';
import { runStatement, type StatementLimits, type StatementResult } from '../data-plane/run-statement.js';
import { sqlErrorOf } from '../data-plane/sql-errors.js';
import type { ExplainSqlInput, RunSqlInput, RunSqlTransactionInput } from '../types/inputs.js';
import { withSqlSession } from './sql-session.js';

const MAX_STATEMENTS = 100;
const MAX_QUERY_CHARACTERS = 1_000_000;

/** Statements that would end or split the platform's transaction (all-or-nothing, read-only, rolled-back explain). */
const TRANSACTION_CONTROL = /^\s*(?:(?:--[^\n]*\n|\/\*[\s\S]*?\*\/)\s*)*(begin|start|commit|end|rollback|abort|savepoint|release|prepare\s+transaction|commit\s+prepared|rollback\s+prepared)\b/i;

function checkedQuery(query: string, insideTransaction: boolean): string {
  if (query.length > MAX_QUERY_CHARACTERS) throw badRequest('query_too_long', `A query is at most ${MAX_QUERY_CHARACTERS} characters`);
  if (query.includes('\u0000')) throw badRequest('invalid_query', 'A query cannot contain a NUL character');
  if (insideTransaction && TRANSACTION_CONTROL.test(query)) {
    throw badRequest('transaction_control_not_allowed', 'Transaction control (BEGIN, COMMIT, ROLLBACK, SAVEPOINT…) is managed by the platform here');
  }
  return query;
}

const limitsOf = (context: RequestContext): StatementLimits => ({
  maxRows: context.services.config.databases.maxRows,
  maxResultBytes: context.services.config.databases.maxResultBytes,
});

/**
 * Begins a transaction that a statement cannot turn read-write: the `SELECT` takes the first
 * snapshot, after which `SET TRANSACTION READ WRITE` is refused.
 */
const begin = (client: pg.PoolClient, readOnly: boolean) => client.query(readOnly ? 'BEGIN READ ONLY; SELECT 1' : 'BEGIN');

/** One statement; with `readOnly`, inside a READ ONLY transaction (a write is 400 `read_only_query`). */
export async function runSql(context: RequestContext, input: RunSqlInput): Promise<StatementResult> {
  const query = checkedQuery(input.query, Boolean(input.readOnly));
  return withSqlSession(context, input, [query], async (client) => {
    if (!input.readOnly) return runStatement(client, query, limitsOf(context));
    await begin(client, true);
    try {
      return await runStatement(client, query, limitsOf(context));
    } finally {
      await client.query('ROLLBACK');
    }
  });
}

/** Every statement in one transaction, all or nothing: a failing statement rolls back the ones before it. */
export async function runSqlTransaction(context: RequestContext, input: RunSqlTransactionInput): Promise<StatementResult[]> {
  if (input.queries.length === 0 || input.queries.length > MAX_STATEMENTS) throw badRequest('invalid_queries', `queries holds 1 to ${MAX_STATEMENTS} statements`);
  const queries = input.queries.map((query) => checkedQuery(query, true));
  return withSqlSession(context, input, queries, async (client) => {
    await begin(client, Boolean(input.readOnly));
    const results: StatementResult[] = [];
    try {
      for (const [index, query] of queries.entries()) {
        results.push(await runStatement(client, query, limitsOf(context)).catch((error) => Promise.reject(sqlErrorOf(error, index))));
      }
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    }
    await client.query(input.readOnly ? 'ROLLBACK' : 'COMMIT');
    return results;
  });
}

/** EXPLAIN (FORMAT JSON), ANALYZE on request, always inside a transaction that is rolled back: explaining a write never writes. */
export async function explainSql(context: RequestContext, input: ExplainSqlInput): Promise<unknown> {
  const query = checkedQuery(input.query, true);
  return withSqlSession(context, input, [query], async (client) => {
    await begin(client, false);
    try {
      const { rows } = await client.query({ text: `EXPLAIN (FORMAT JSON${input.analyze ? ', ANALYZE, BUFFERS' : ''}) ${query}`, queryMode: 'extended' } as pg.QueryConfig);
      return rows[0]?.['QUERY PLAN'];
    } finally {
      await client.query('ROLLBACK');
    }
  });
}
