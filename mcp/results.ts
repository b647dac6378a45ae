/** A list cut to `max` items, saying so and how to get the rest, so a result never floods an agent's context. */
export function capped<T>(items: T[], max: number, hint: string): { items: T[]; truncated: boolean; hint?: string } {
  if (items.length <= max) return { items, truncated: false };
  return { items: items.slice(0, max), truncated: true, hint };
}

/** A tool's list result under `key`, capped at MCP_MAX_ROWS. */
export function listResult(key: string, all: unknown[], max: number, hint: string): Record<string, unknown> {
  const { items, ...rest } = capped(all, max, hint);
  return { [key]: items, ...rest };
}

/** Paging through a platform list: one more than asked, to know whether there is more. */
export async function page<T>(
  fetchPage: (limit: number, offset: number) => Promise<T[]>,
  asked: { limit?: number; offset?: number },
  maxRows: number,
  platformMax = 100,
): Promise<{ items: T[]; truncated: boolean; next_offset?: number }> {
  const offset = asked.offset ?? 0;
  const limit = Math.min(asked.limit ?? Math.min(50, maxRows), maxRows, platformMax);
  const items = await fetchPage(Math.min(limit + 1, platformMax), offset);
  // At the platform's own page size, a full page may or may not have more behind it: say it may.
  const more = items.length > limit || (limit === platformMax && items.length === limit);
  if (!more) return { items, truncated: false };
  return { items: items.slice(0, limit), truncated: true, next_offset: offset + limit };
}
