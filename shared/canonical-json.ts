/**
 * JSON with object keys sorted at every level, so the same value always prints the same bytes
 * (jsonb reorders keys): what a hash or an idempotency check compares. A bigint prints as its
 * digits in a string, a Date as its ISO time.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value ?? null, (_key, item) => {
    if (typeof item === 'bigint') return item.toString();
    if (item && typeof item === 'object' && !Array.isArray(item)) {
      return Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    }
    return item;
  });
}
