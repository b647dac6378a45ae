import type { RequestContext } from '../../../shared/context.js';
import { publisherReference } from '../types/publisher-ref.js';
import type { CountByKey, CountByPublisher, FederationHistoryStats, FederationStats } from '../types/results.js';
import { publisherIdOfSlug } from './publishers.js';
import { limitHeavyRead } from './read-limits.js';

interface Filters {
  publisherSlug?: string | null;
  resourceType?: string | null;
}

/** `where` over publisher_id and resource_type, or null when the named publisher does not exist. */
async function whereOf(context: RequestContext, filters: Filters): Promise<{ sql: string; params: unknown[] } | null> {
  const clauses: string[] = ['true'];
  const params: unknown[] = [];
  if (filters.publisherSlug) {
    const publisherId = await publisherIdOfSlug(context, filters.publisherSlug);
    if (!publisherId) return null;
    clauses.push('publisher_id = ?');
    params.push(publisherId);
  }
  if (filters.resourceType) {
    clauses.push('resource_type = ?');
    params.push(filters.resourceType);
  }
  return { sql: clauses.join(' and '), params };
}

type Grouped = { dimension: string; key: string | null; count: string }[];

/** Counts of `table` grouped by each of `columns` separately, largest first. */
async function countsBy(context: RequestContext, table: string, columns: string[], where: { sql: string; params: unknown[] }) {
  const sets = columns.map((column) => `select '${column}' as dimension, ${column}::text as key, count(*) as count from ${table} where ${where.sql} group by ${column}`);
  const rows: Grouped = await context.em.execute(
    `${sets.join(' union all ')} order by dimension, count desc, key`,
    columns.flatMap(() => where.params),
  );
  const by = (column: string): CountByKey[] =>
    rows.filter((row) => row.dimension === column).map((row) => ({ key: row.key ?? '', count: Number(row.count) }));
  const byPublisher = (): CountByPublisher[] =>
    by('publisher_id').map(({ key, count }) => ({ publisher: publisherReference(key), count }));
  return { by, byPublisher };
}

async function lastChangeAt(context: RequestContext, where: { sql: string; params: unknown[] }): Promise<Date | null> {
  const [row] = await context.em.execute(`select max(created_at) as last from fed_history where ${where.sql}`, where.params);
  return row?.last ? new Date(row.last) : null;
}

/** Counts of `table` by publisher, resource type and `third`, and the time of the last change, for the filters. */
async function statsOf(context: RequestContext, table: string, third: string, filters: Filters) {
  await limitHeavyRead(context, table);
  const where = await whereOf(context, filters);
  if (!where) return { total: 0, byPublisher: [], byResourceType: [], byThird: [], lastChangeAt: null };
  const counts = await countsBy(context, table, ['publisher_id', 'resource_type', third], where);
  const byThird = counts.by(third);
  return {
    total: byThird.reduce((sum, row) => sum + row.count, 0),
    byPublisher: counts.byPublisher(),
    byResourceType: counts.by('resource_type'),
    byThird,
    lastChangeAt: await lastChangeAt(context, where),
  };
}

/** GET /federation/stats: resources by publisher, type and status, and when one last changed. */
export async function federationStats(context: RequestContext, publisherSlug: string | null | undefined): Promise<FederationStats> {
  const { byThird: byStatus, ...stats } = await statsOf(context, 'fed_resource', 'status', { publisherSlug });
  return { ...stats, byStatus };
}

/** GET /federation/history/stats: entries by publisher, type and operation, and the latest one's time. */
export async function federationHistoryStats(context: RequestContext, filters: Filters): Promise<FederationHistoryStats> {
  const { byThird: byOperation, ...stats } = await statsOf(context, 'fed_history', 'operation', filters);
  return { ...stats, byOperation };
}
