import type pg from 'pg';
import Cursor from 'pg-cursor';
import { badRequest } from '../../../shared/errors.js';
import { sqlTypes } from './sql-types.js';

export interface StatementLimits {
  maxRows: number;
  maxResultBytes: number;
}

export interface StatementResult {
  rows: Record<string, unknown>[];
  fields: { name: string; dataTypeName: string }[];
  rowCount: number;
  durationMs: number;
  truncated: boolean;
  command: string | null;
}

const BATCH = 200;

/**
 * One statement, read through a portal so a huge result is never held whole: rows stop at
 * `maxRows` or `maxResultBytes` (of JSON) and the answer says it was truncated. A statement is one
 * statement: the extended protocol refuses a second one.
 */
export async function runStatement(client: pg.PoolClient | pg.Client, text: string, limits: StatementLimits): Promise<StatementResult> {
  if (text.trim() === '') throw badRequest('empty_query', 'The query is empty');
  const started = performance.now();
  const cursor = client.query(new Cursor(text, null, { types: sqlTypes }));
  const rows: Record<string, unknown>[] = [];
  let bytes = 0;
  let truncated = false;
  try {
    reading: for (;;) {
      const batch = (await cursor.read(Math.min(BATCH, limits.maxRows + 1 - rows.length))) as Record<string, unknown>[];
      if (batch.length === 0) break;
      for (const row of batch) {
        const size = JSON.stringify(row).length;
        if (rows.length >= limits.maxRows || bytes + size > limits.maxResultBytes) {
          truncated = true;
          break reading;
        }
        rows.push(row);
        bytes += size;
      }
    }
  } finally {
    await cursor.close().catch(() => undefined);
  }
  const result = cursor._result;
  return {
    rows,
    fields: await fieldsOf(client, result.fields),
    rowCount: result.command === 'SELECT' || result.rowCount === null ? rows.length : result.rowCount,
    durationMs: Math.round((performance.now() - started) * 1000) / 1000,
    truncated,
    command: result.command ?? null,
  };
}

const typeNames = new Map<number, string>();

/** Type names of the result's columns; built-in ones are remembered, a database's own (enums, domains) asked for. */
async function fieldsOf(client: pg.PoolClient | pg.Client, fields: pg.FieldDef[]): Promise<{ name: string; dataTypeName: string }[]> {
  const unknown = [...new Set(fields.map((field) => field.dataTypeID).filter((oid) => !typeNames.has(oid)))];
  const local = new Map<number, string>();
  if (unknown.length > 0) {
    const { rows } = await client.query<{ oid: number; name: string }>('SELECT oid::int AS oid, format_type(oid, NULL) AS name FROM pg_type WHERE oid = ANY($1::oid[])', [unknown]);
    for (const row of rows) {
      if (row.oid < 16384) typeNames.set(row.oid, row.name);
      else local.set(row.oid, row.name);
    }
  }
  return fields.map((field) => ({ name: field.name, dataTypeName: typeNames.get(field.dataTypeID) ?? local.get(field.dataTypeID) ?? String(field.dataTypeID) }));
}
