import { ReferenceKind, type EntityClass, type EntityMetadata, type EntityProperty, type FilterQuery, type Platform, type QueryOrderMap } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';

interface RowReader<T> {
  /** The properties read, by name: only the entity's own columns (a table may hold more, such as a search vector). */
  properties: string[];
  read(row: Record<string, unknown>): T;
}

const readers = new WeakMap<EntityClass<any>, RowReader<any>>();

export interface PlainQuery<T> {
  orderBy?: QueryOrderMap<T> | QueryOrderMap<T>[];
  limit?: number;
  offset?: number;
}

/**
 * Rows for an answer only, read with the entity's own query (the same filter and order) but
 * outside the unit of work: no identity map, no snapshot of every value for change tracking. Each
 * record has the entity's prototype (its getters work) and its values converted as the entity
 * manager converts them; nothing read this way can be changed and flushed.
 */
export async function findPlain<T extends object>(em: EntityManager, entity: EntityClass<T>, where: FilterQuery<T>, query: PlainQuery<T> = {}): Promise<T[]> {
  const reader = readerOf(em, entity);
  const builder = em.createQueryBuilder(entity).select(reader.properties as any).where(where as any);
  if (query.orderBy) builder.orderBy(query.orderBy as any);
  if (query.limit !== undefined) builder.limit(query.limit);
  if (query.offset) builder.offset(query.offset);
  const rows = (await builder.execute('all', false)) as Record<string, unknown>[];
  return rows.map((row) => reader.read(row));
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
 * The reader is generated once per entity: each property is written by name in the same order, so
 * every record shares one hidden class and the writes stay fast (a loop of keyed writes over 75
 * properties made each record a slow dictionary object). Names come from the entity's metadata.
 */
function buildReader<T extends object>(meta: EntityMetadata<T>, platform: Platform, entity: EntityClass<T>): RowReader<T> {
  const columns = meta.props
    .filter((prop) => prop.persist !== false && prop.fieldNames?.length === 1)
    .map((prop) => {
      if (prop.kind !== ReferenceKind.SCALAR) throw new Error(`findPlain reads scalar properties only: ${meta.className}.${prop.name} is a relation`);
      return { property: prop.name as string, column: prop.fieldNames[0]!, convert: converterOf(prop, platform) };
    });
  const converters = columns.map((column) => column.convert);
  const body = columns
    .map(({ property, column, convert }, index) => {
      const value = `row[${JSON.stringify(column)}]`;
      const converted = convert ? `(${value} == null ? null : convert[${index}](${value}))` : `(${value} ?? null)`;
      return `this[${JSON.stringify(property)}] = ${converted};`;
    })
    .join('\n');
  const Record = new Function('convert', `return function PlainRecord(row) {\n${body}\n};`)(converters) as new (row: Record<string, unknown>) => T;
  Record.prototype = entity.prototype;
  return { properties: columns.map((column) => column.property), read: (row) => new Record(row) };
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
