/** A zero-argument async factory that runs once (e.g. building a subgraph schema). */
export function memoize<T>(factory: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () => (value ??= factory());
}
