import { KeptCopies } from '../shared/copies.js';
import type { ChangeNotices, ChangeTopic } from '../shared/db/change-notices.js';

const MAX_ENTRIES = 1000;

/**
 * Serialised answers of public reads that are the same for every caller (the catalogue), kept by
 * URL for a short time. A change of the route's topic forgets them all: at once in the process
 * that made it, within the change notice's delay in the others; the time bounds a lost notice.
 */
export class PublicAnswerCache extends KeptCopies<string> {
  constructor(ttlMs: number, changes: ChangeNotices, topics: Iterable<ChangeTopic>) {
    super(ttlMs, MAX_ENTRIES);
    for (const topic of new Set(topics)) changes.on(topic, () => this.forgetAll());
    changes.onResync(() => this.forgetAll());
  }
}
