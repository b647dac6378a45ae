import { ReferenceKind, type EntityClass, type EntityMetadata, type EntityProperty, type FilterQuery, type Platform, type QueryOrderMap } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Pool } from 'pg';

export interface PlainQuery<T> {
  orderBy?: QueryOrderMap<T> | QueryOrderMap<T>[];
  limit?: number;
  offset?: number;
}

interface Column {
  property: string;
  column: string;
  convert: ((value: unknown) => unknown) | null;
}

interface RowReader<T> {
  table: string;
  columns: Column[];
  byProperty: Map<string, Column>;
  /** A row of the entity's columns, in `columns` order. */
  readList(row: unknown[]): T;
  /** A row keyed by column name. */
  readNamed(row: Record<string, unknown>): T;
}

const readers = new WeakMap<EntityClass<any>, RowReader<any>>();

/**
 * Rows for an answer only, read outside the unit of work: no identity map, no snapshot of every
 * value for change tracking. Each record has the entity's prototype (its getters work) and its
 * values converted as the entity manager converts them; nothing read this way can be changed and
 * flushed. Only the entity's own columns are read (a table may hold more, such as a search vector).
 *
 * A filter of equalities, nulls and `$in` lists, with a plain order and page, is written as SQL
 * here once its shape is known and sent straight to the connection pool (MikroORM's query builder
 * cost as much as decoding the rows); anything else, or a read inside a transaction, goes through
 * the entity's own query builder.
 */
export async function findPlain<T extends object>(em: EntityManager, entity: EntityClass<T>, where: FilterQuery<T>, query: PlainQuery<T> = {}): Promise<T[]> {
  const reader = readerOf(em, entity);
  const sql = em.isInTransaction() ? null : simpleSql(reader, where, query);
  if (sql) {
    const pool = (await em.getConnection().getNativeClient()) as Pool;
    const result = await pool.query({ text: sql.text, values: sql.values, rowMode: 'array' });
    return (result.rows as unknown[][]).map((row) => reader.readList(row));
  }
  const builder = em.createQueryBuilder(entity).select(reader.columns.map((column) => column.property) as any).where(where as any);
  if (query.orderBy) builder.orderBy(query.orderBy as any);
  if (query.limit !== undefined) builder.limit(query.limit);
  if (query.offset) builder.offset(query.offset);
  const rows = (await builder.execute('all', false)) as Record<string, unknown>[];
  return rows.map((row) => reader.readNamed(row));
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;
const SIMPLE_VALUE = new Set(['string', 'number', 'boolean']);

/** The SELECT for a filter of equalities, nulls and `$in` lists with a plain order and page; null for anything else. */
function simpleSql<T>(reader: RowReader<T>, where: FilterQuery<T>, query: PlainQuery<T>): { text: string; values: unknown[] } | null {
  if (!where || typeof where !== 'object' || Array.isArray(where)) return null;
  const values: unknown[] = [];
  const conditions: string[] = [];
  for (const [property, value] of Object.entries(where)) {
    const column = reader.byProperty.get(property);
    if (!column) return null;
    const name = quoted(column.column);
    if (value === null) conditions.push(`${name} is null`);
    // A value the entity manager would convert for the database (json, arrays, bigints, dates): its query builder does that.
    else if (column.convert) return null;
    else if (SIMPLE_VALUE.has(typeof value)) conditions.push(`${name} = $${values.push(value)}`);
    else if (isInList(value)) conditions.push(value.$in.length === 0 ? 'false' : `${name} = any($${values.push(value.$in)})`);
    else return null;
  }
  const order: string[] = [];
  if (query.orderBy) {
    if (Array.isArray(query.orderBy)) return null;
    for (const [property, direction] of Object.entries(query.orderBy)) {
      const column = reader.byProperty.get(property);
      const sql = typeof direction === 'string' ? direction.toLowerCase() : '';
      if (!column || (sql !== 'asc' && sql !== 'desc')) return null;
      order.push(`${quoted(column.column)} ${sql}`);
    }
  }
  let text = `select ${reader.columns.map((column) => quoted(column.column)).join(', ')} from ${reader.table}`;
  if (conditions.length > 0) text += ` where ${conditions.join(' and ')}`;
  if (order.length > 0) text += ` order by ${order.join(', ')}`;
  if (query.limit !== undefined) text += ` limit $${values.push(query.limit)}`;
  if (query.offset) text += ` offset $${values.push(query.offset)}`;
  return { text, values };
}

function isInList(value: unknown): value is { $in: (string | number)[] } {
  if (!value || typeof value !== 'object') return false;
  const keys = Object.keys(value);
  const list = (value as { $in?: unknown }).$in;
  return keys.length === 1 && Array.isArray(list) && list.every((item) => typeof item === 'string' || typeof item === 'number');
}

function readerOf<T extends object>(em: EntityManager, entity: EntityClass<T>): RowReader<T> {
  let reader = readers.get(entity) as RowReader<T> | undefined;
  if (!reader) {
    reader = buildReader(em.getMetadata().get(entity) as EntityMetadata<T>, em.getPlatform(), entity);
    readers.set(entity, reader);
  }
  return reader;
}

/**
 * The readers are generated once per entity: each property is written by name in the same order,
 * so every record shares one hidden class and the writes stay fast (a loop of keyed writes over 75
 * properties made each record a slow dictionary object). Names come from the entity's metadata.
 */
function buildReader<T extends object>(meta: EntityMetadata<T>, platform: Platform, entity: EntityClass<T>): RowReader<T> {
  const columns: Column[] = meta.props
    .filter((prop) => prop.persist !== false && prop.fieldNames?.length === 1)
    .map((prop) => {
      if (prop.kind !== ReferenceKind.SCALAR) throw new Error(`findPlain reads scalar properties only: ${meta.className}.${prop.name} is a relation`);
      return { property: prop.name as string, column: prop.fieldNames[0]!, convert: converterOf(prop, platform) };
    });
  const converters = columns.map((column) => column.convert);
  const recordOf = (valueOf: (column: Column, index: number) => string) => {
    const body = columns
      .map((column, index) => {
        const value = valueOf(column, index);
        const converted = column.convert ? `(${value} == null ? null : convert[${index}](${value}))` : `(${value} ?? null)`;
        return `this[${JSON.stringify(column.property)}] = ${converted};`;
      })
      .join('\n');
    const Record = new Function('convert', `return function PlainRecord(row) {\n${body}\n};`)(converters) as new (row: unknown) => T;
    Record.prototype = entity.prototype;
    return Record;
  };
  const FromList = recordOf((_column, index) => `row[${index}]`);
  const FromNamed = recordOf((column) => `row[${JSON.stringify(column.column)}]`);
  const table = meta.schema ? `${quoted(meta.schema)}.${quoted(meta.tableName)}` : quoted(meta.tableName);
  return {
    table,
    columns,
    byProperty: new Map(columns.map((column) => [column.property, column])),
    readList: (row) => new FromList(row),
    readNamed: (row) => new FromNamed(row),
  };
}

/** How the entity manager turns a column's value into the property's (null for none). */
function converterOf(prop: EntityProperty, platform: Platform): ((value: unknown) => unknown) | null {
  if (prop.customType) {
    const type = prop.customType;
    return (value) => type.convertToJSValue(value, platform);
  }
  if (prop.runtimeType === 'Date') return (value) => (value instanceof Date ? value : platform.parseDate(value as string));
  return null;
}
