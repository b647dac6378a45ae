/**
 * A PostgreSQL array literal for a bound parameter (`?::text[]`): the ORM would spread a JS array
 * into a list of placeholders. Every element is quoted, so commas, quotes and braces stay inside it.
 */
export function pgArray(values: readonly (string | number | bigint | null)[]): string {
  const items = values.map((value) => (value === null ? 'NULL' : `"${String(value).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`));
  return `{${items.join(',')}}`;
}
