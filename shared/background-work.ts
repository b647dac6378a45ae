import { settledWithin } from './timing.js';

/**
 * Work a request goes on with after its caller may be gone (a paid call refunding an answer the
 * upstream broke off, after the connection was cut): the HTTP server no longer waits for it, so a
 * stopping process waits here before it closes the database under it.
 */
export class BackgroundWork {
  private readonly running = new Set<Promise<unknown>>();

  track<T>(work: Promise<T>): Promise<T> {
    this.running.add(work);
    const forget = () => void this.running.delete(work);
    work.then(forget, forget);
    return work;
  }

  /** Waits for the work under way, at most `timeoutMs`; false when some was still running. */
  async settled(timeoutMs: number): Promise<boolean> {
    return this.running.size === 0 || settledWithin(Promise.allSettled([...this.running]), timeoutMs);
  }

  get size(): number {
    return this.running.size;
  }
}
