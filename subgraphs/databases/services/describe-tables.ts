import type { RequestContext } from '../../../shared/context.js';
import { notFound } from '../../../shared/errors.js';
import type { DatabaseTable, TableSchema } from '../types/results.js';
import { withSqlSession, type SqlTarget } from './sql-session.js';

const KINDS: Record<string, string> = { r: 'table', v: 'view', m: 'materialized_view', f: 'foreign_table', p: 'partitioned_table' };

/** Tables of a schema (default `public`) with the planner's row estimate and total size, from the catalogue. */
export async function listTables(context: RequestContext, target: SqlTarget, schema: string | null | undefined): Promise<DatabaseTable[]> {
  return withSqlSession(context, target, [], async (client) => {
    const { rows } = await client.query<{ name: string; kind: string; estimate: number; size: string }>(
      `SELECT c.relname AS name, c.relkind AS kind, greatest(c.reltuples, 0)::float8 AS estimate, pg_total_relation_size(c.oid)::text AS size
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = $1 AND c.relkind IN ('r', 'v', 'm', 'f', 'p')
        ORDER BY c.relname`,
      [schema ?? 'public'],
    );
    return rows.map((row) => ({ schema: schema ?? 'public', name: row.name, type: KINDS[row.kind]!, rowEstimate: row.estimate, totalSizeBytes: row.size }));
  });
}

/** A table's columns, indexes, constraints and foreign keys, read from the catalogue (nothing is created in the database). */
export async function describeTable(context: RequestContext, target: SqlTarget, tableName: string, schema: string | null | undefined): Promise<TableSchema> {
  const namespace = schema ?? 'public';
  return withSqlSession(context, target, [], async (client) => {
    const table = await client.query<{ oid: number }>(
      `SELECT c.oid::int AS oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = $1 AND c.relname = $2 AND c.relkind IN ('r', 'v', 'm', 'f', 'p')`,
      [namespace, tableName],
    );
    const oid = table.rows[0]?.oid;
    if (oid === undefined) throw notFound('Table');
    // One session answers one query at a time.
    const columns = await client.query(
      `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS "dataType", NOT a.attnotnull AS nullable,
              pg_get_expr(d.adbin, d.adrelid) AS default, a.attnum::int AS position
         FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
        WHERE a.attrelid = $1 AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`,
      [oid],
    );
    const indexes = await client.query(
      `SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS definition, i.indisunique AS unique, i.indisprimary AS primary
         FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = $1 ORDER BY c.relname`,
      [oid],
    );
    const constraints = await client.query(
      `SELECT conname AS name, contype AS type, pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE conrelid = $1 ORDER BY conname`,
      [oid],
    );
    const foreignKeys = await client.query(
      `SELECT con.conname AS name,
              array(SELECT a.attname::text FROM unnest(con.conkey) WITH ORDINALITY k(n, i) JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.n ORDER BY k.i) AS columns,
              rn.nspname AS "referencedSchema", rc.relname AS "referencedTable",
              array(SELECT a.attname::text FROM unnest(con.confkey) WITH ORDINALITY k(n, i) JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.n ORDER BY k.i) AS "referencedColumns"
         FROM pg_constraint con JOIN pg_class rc ON rc.oid = con.confrelid JOIN pg_namespace rn ON rn.oid = rc.relnamespace
        WHERE con.conrelid = $1 AND con.contype = 'f' ORDER BY con.conname`,
      [oid],
    );
    const constraintTypes: Record<string, string> = { p: 'primary_key', u: 'unique', c: 'check', f: 'foreign_key', x: 'exclusion', t: 'trigger', n: 'not_null' };
    return {
      schema: namespace,
      name: tableName,
      columns: columns.rows,
      indexes: indexes.rows,
      constraints: constraints.rows.map((row) => ({ ...row, type: constraintTypes[row.type] ?? row.type })),
      foreignKeys: foreignKeys.rows,
    };
  });
}
