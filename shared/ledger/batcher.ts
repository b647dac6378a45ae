/**
 * Group commit for one kind of ledger statement. Calls that arrive while `maxInFlight` statements
 * are already in the database wait and go together in the next one: one statement, one transaction
 * and one WAL flush for many calls. A call never waits for a timer, only for statements already
 * running, so a lone call goes out at once, and alone (through its single-item statement).
 * A statement still running after `stallMs` (waiting on a row lock another transaction holds, say)
 * stops counting against `maxInFlight`, so it cannot hold up the calls queued behind it.
 *
 * A batch answers each item with its result or null. Null (an item the batch left alone, or every
 * item when the batch statement failed, which rolls it back whole) means the item is run alone,
 * through the single-item path that explains refusals and answers replays.
 */
export interface BatchStats {
  /** Batch statements sent (two items or more). */
  batches: number;
  /** Items those statements settled. */
  settled: number;
  /** Items that went out alone because nothing else was waiting. */
  alone: number;
  /** Items run alone after a batch left them out (a refusal, a replay) or failed. */
  handedBack: number;
  failedBatches: number;
  largestBatch: number;
}

interface Waiting<Item, Result> {
  item: Item;
  runAlone: () => Promise<Result>;
  resolve(result: Promise<Result>): void;
}

export class StatementBatcher<Item, Result> {
  readonly stats: BatchStats = { batches: 0, settled: 0, alone: 0, handedBack: 0, failedBatches: 0, largestBatch: 0 };
  private queue: Waiting<Item, Result>[] = [];
  private inFlight = 0;
  private stalled = 0;

  constructor(
    private readonly runBatch: (items: Item[]) => Promise<(Result | null)[]>,
    private readonly options: {
      maxBatch: number;
      maxInFlight: number;
      stallMs: number;
      /** Told of each batch statement that failed (its items then ran alone). */
      onFailure?: (error: unknown, items: number) => void;
    },
  ) {}

  /** `runAlone` is the single-item path: used for a lone item and for any item a batch did not settle. */
  submit(item: Item, runAlone: () => Promise<Result>): Promise<Result> {
    return new Promise((resolve) => {
      this.queue.push({ item, runAlone, resolve });
      this.drain();
    });
  }

  private drain(): void {
    while (this.inFlight - this.stalled < this.options.maxInFlight && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.options.maxBatch);
      this.inFlight += 1;
      let stalled = false;
      const stallTimer = setTimeout(() => {
        stalled = true;
        this.stalled += 1;
        this.drain();
      }, this.options.stallMs).unref();
      void this.send(batch).finally(() => {
        clearTimeout(stallTimer);
        if (stalled) this.stalled -= 1;
        this.inFlight -= 1;
        this.drain();
      });
    }
  }

  private async send(batch: Waiting<Item, Result>[]): Promise<void> {
    if (batch.length === 1) {
      this.stats.alone += 1;
      const alone = batch[0]!.runAlone();
      batch[0]!.resolve(alone);
      await alone.catch(() => undefined);
      return;
    }
    this.stats.batches += 1;
    this.stats.largestBatch = Math.max(this.stats.largestBatch, batch.length);
    let results: (Result | null)[];
    try {
      results = await this.runBatch(batch.map((waiting) => waiting.item));
    } catch (error) {
      this.stats.failedBatches += 1;
      this.options.onFailure?.(error, batch.length);
      results = [];
    }
    batch.forEach((waiting, index) => {
      const result = results[index] ?? null;
      if (result === null) {
        this.stats.handedBack += 1;
        waiting.resolve(waiting.runAlone());
      } else {
        this.stats.settled += 1;
        waiting.resolve(Promise.resolve(result));
      }
    });
  }
}
