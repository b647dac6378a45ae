import type { ChangeNotices, ChangeTopic } from '../shared/db/change-notices.js';

const MAX_ENTRIES = 1000;

interface CachedAnswer {
  body: string;
  expiresAt: number;
}

/**
 * Serialised answers of public reads that are the same for every caller (the catalogue), kept by
 * URL for a short time. A change of the route's topic forgets them all: at once in the process
 * that made it, within the change notice's delay in the others; the time bounds a lost notice.
 */
export class PublicAnswerCache {
  private readonly answers = new Map<string, CachedAnswer>();
  /** Bumped by every change: an answer read before a change is never stored after it. */
  private version = 0;

  constructor(
    private readonly ttlMs: number,
    changes: ChangeNotices,
    topics: Iterable<ChangeTopic>,
  ) {
    for (const topic of new Set(topics)) changes.on(topic, () => this.forgetAll());
    changes.onResync(() => this.forgetAll());
  }

  private forgetAll(): void {
    this.version += 1;
    this.answers.clear();
  }

  /** Taken before reading an answer, handed back to `set`. */
  get generation(): number {
    return this.version;
  }

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  get(url: string): string | undefined {
    const cached = this.answers.get(url);
    if (!cached) return undefined;
    if (cached.expiresAt > Date.now()) return cached.body;
    this.answers.delete(url);
    return undefined;
  }

  set(url: string, body: string, readAtGeneration: number): void {
    if (!this.enabled || readAtGeneration !== this.version) return;
    if (this.answers.size >= MAX_ENTRIES) this.answers.clear();
    this.answers.set(url, { body, expiresAt: Date.now() + this.ttlMs });
  }
}
