import type { MikroORM } from '@mikro-orm/postgresql';

/**
 * What the entities need that the database lacks: the additive part of MikroORM's schema diff.
 * Hand-written SQL (CHECK constraints, generated search columns, GIN indexes, the ledger's tables)
 * is invisible to entities, so the diff's `drop …` statements are left out: dropping is always a
 * deliberate, hand-written migration.
 */
export async function pendingEntityChanges(orm: MikroORM, tablePrefix?: string): Promise<string[]> {
  const sql = await orm.schema.getUpdateSchemaSQL({ wrap: false, safe: true, dropTables: false });
  return sql
    .split(/;\s*\n/)
    .map((statement) => statement.trim().replace(/;$/, ''))
    .filter((statement) => statement && !/\bdrop\b/i.test(statement))
    .filter((statement) => !tablePrefix || /"([a-z0-9_]+)"/.exec(statement)?.[1]?.startsWith(tablePrefix));
}
