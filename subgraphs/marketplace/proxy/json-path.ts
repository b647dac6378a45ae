/** The value at a dotted path with optional indexes ("usage.cost", "data[0].token"); undefined when absent. */
export function readJsonPath(document: unknown, path: string): unknown {
  let value: unknown = document;
  for (const step of path.match(/[^.[\]]+/g) ?? []) {
    if (value === null || typeof value !== 'object') return undefined;
    value = Array.isArray(value) && /^\d+$/.test(step) ? value[Number(step)] : (value as Record<string, unknown>)[step];
  }
  return value;
}
