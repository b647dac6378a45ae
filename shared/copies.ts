/**
 * Copies this process keeps of what lives in the database, for a time and until it changes.
 * Take `generation` before reading the original and hand it to `set`: a copy read before a
 * change is never kept after it, whichever finishes first. The time bounds a lost change notice.
 */
export class KeptCopies<V> {
  private readonly copies = new Map<string, { value: V; expiresAt: number }>();
  private version = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxCopies: number,
  ) {}

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  get generation(): number {
    return this.version;
  }

  get(key: string): V | undefined {
    const copy = this.copies.get(key);
    if (!copy) return undefined;
    if (copy.expiresAt > Date.now()) return copy.value;
    this.copies.delete(key);
    return undefined;
  }

  set(key: string, value: V, readAtGeneration: number): void {
    if (!this.enabled || readAtGeneration !== this.version) return;
    // The oldest copy makes room.
    if (this.copies.size >= this.maxCopies && !this.copies.has(key)) this.copies.delete(this.copies.keys().next().value!);
    this.copies.set(key, { value, expiresAt: Date.now() + this.ttlMs });
  }

  forget(...keys: string[]): void {
    this.version += 1;
    for (const key of keys) this.copies.delete(key);
  }

  forgetAll(): void {
    this.version += 1;
    this.copies.clear();
  }
}
