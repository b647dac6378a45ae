import type { EntityManager } from '@mikro-orm/postgresql';

export interface SearchFilters {
  category?: string | null;
  isVerified?: boolean | null;
}

export interface RankedId {
  id: string;
  /** 0..1: full-text match (stemmed words) or trigram similarity (typos), whichever is stronger. */
  relevance: number;
}

/** Active publishers (`p`) of these filters; their values are pushed onto `params`, bound in order. */
function activeWhere(filters: SearchFilters, params: unknown[]): string {
  let where = 'p.is_active';
  if (filters.category) {
    params.push(filters.category);
    where += ' and p.publisher_category = ?';
  }
  if (filters.isVerified !== undefined && filters.isVerified !== null) {
    params.push(filters.isVerified);
    where += ' and p.is_verified = ?';
  }
  return where;
}

/** The ids of a listing's page (no search), in its order: verified first, then most used, then by name. */
export async function listedPublisherIds(em: EntityManager, filters: SearchFilters, page: { limit: number; offset: number }): Promise<string[]> {
  const params: unknown[] = [];
  const where = activeWhere(filters, params);
  params.push(page.limit, page.offset);
  const rows = await em
    .getConnection()
    .execute<{ id: string }[]>(`select p.id from market_publisher p where ${where} order by p.is_verified desc, p.total_queries desc, p.name asc, p.id asc limit ? offset ?`, params);
  return rows.map((row) => row.id);
}

/**
 * Active publishers matching `search` by full-text (search_vector: name, resource, capabilities,
 * use cases, categories, description) or by trigram word similarity (typos; `<%` uses
 * pg_trgm.word_similarity_threshold, 0.6 by default), most relevant first. Both branches use GIN indexes.
 */
export async function searchPublisherIds(
  em: EntityManager,
  search: string,
  filters: SearchFilters,
  page: { limit: number; offset: number },
): Promise<RankedId[]> {
  // MikroORM's execute takes `?` placeholders, bound in order.
  const params: unknown[] = [search, search];
  const where = activeWhere(filters, params);
  params.push(page.limit, page.offset);
  const rows = await em.getConnection().execute<{ id: string; relevance: number }[]>(
    `with q as (select websearch_to_tsquery('english', ?) as tsq, lower(?) as raw),
     scored as (
       select p.id, p.is_verified, p.total_queries, p.name,
         greatest(
           word_similarity(q.raw, p.search_text),
           case when p.search_vector @@ q.tsq then 0.6 + 0.4 * ts_rank_cd(p.search_vector, q.tsq, 32) else 0 end
         ) as relevance
       from market_publisher p, q
       where ${where} and (p.search_vector @@ q.tsq or q.raw <% p.search_text)
     )
     select id, relevance::float8 as relevance from scored
     order by relevance desc, is_verified desc, total_queries desc, name asc
     limit ? offset ?`,
    params,
  );
  return rows.map((row) => ({ id: row.id, relevance: Number(row.relevance) }));
}
