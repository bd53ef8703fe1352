/**
 * Group commit for small writes many requests make at once (issue 15): callers hand in one item each, and what
 * arrives while a batch is being written goes to the database as the next batch, in one command. An idle service
 * writes at once (a batch of one, no timer, no added wait); a busy one sends one command per batch instead of one
 * per request. It matters on FerretDB 1.24, which runs every write as its own SQLite transaction through a single
 * writer (a create's audit entry, intent and intent deletion each cost as much as the record's insert), and it spares
 * MongoDB round trips too.
 *
 * One batch is in flight per batcher at a time: the next one fills while it runs, which is what makes batches.
 */

export interface WriteBatcher<T> {
  /** Resolves once `item` is written; rejects with that item's own error, or the batch's when its outcome is unknown. */
  write(item: T): Promise<void>;
}

/**
 * What one batch's write reports: `undefined` when every item was written, else per item (by index in the batch) an
 * error, or `undefined` for an item written. Throwing fails every item of the batch with that error.
 */
export type BatchWrite<T> = (items: T[]) => Promise<readonly unknown[] | undefined>;

interface Waiting<T> {
  item: T;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export interface BatcherOptions {
  /** Items per command at most. */
  maxBatch?: number;
  /**
   * How long a batch gathers after the first item before it is written (0: at once). Only for writes nobody waits
   * for (housekeeping), where fewer, larger commands are worth a later write.
   */
  lingerMs?: number;
  /**
   * Whether a batch's error means the items queued behind it would fail the same way (the database unreachable):
   * they are failed with it at once, never sent, instead of each waiting out its own attempt — one batch at a time
   * would otherwise drain a queue built up during an outage at one server-selection timeout per batch.
   */
  failsQueued?: (error: unknown) => boolean;
}

export function createWriteBatcher<T>(writeBatch: BatchWrite<T>, options: BatcherOptions = {}): WriteBatcher<T> {
  const maxBatch = options.maxBatch ?? 100;
  const lingerMs = options.lingerMs ?? 0;
  let queue: Waiting<T>[] = [];
  let writing = false;

  async function flush(): Promise<void> {
    writing = true;
    while (queue.length > 0) {
      if (lingerMs > 0 && queue.length < maxBatch) await new Promise((resolve) => setTimeout(resolve, lingerMs));
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(batch.length);
      try {
        const outcomes = await writeBatch(batch.map((waiting) => waiting.item));
        batch.forEach((waiting, index) => {
          const error = outcomes?.[index];
          if (error === undefined) waiting.resolve();
          else waiting.reject(error);
        });
      } catch (error) {
        const failed = options.failsQueued?.(error) ? [...batch, ...queue.splice(0)] : batch;
        for (const waiting of failed) waiting.reject(error);
      }
    }
    writing = false;
  }

  return {
    write(item) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        if (!writing) void flush();
      });
    },
  };
}
