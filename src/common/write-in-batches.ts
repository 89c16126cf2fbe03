/**
 * How a run of `writeInBatches` ended: read to its end, cancelled (the items
 * read before the cancel were written), or broken by an error the caller said
 * keeps what came before (`keepsBefore`): those items were written too.
 */
export type BatchRunEnd = { stop: null } | { stop: 'cancelled' } | { stop: 'broken'; error: unknown };

export interface BatchRunOptions<T> {
  /** Writes one batch, all or none of it (one transaction): what a stopped run leaves is whole batches. */
  write: (batch: T[]) => Promise<void>;
  /** Called after each batch is written, with how many items it held. */
  onWritten?: (batch: readonly T[]) => void;
  /** A batch is written when it holds this many items… */
  maxItems: number;
  /** …or when its items weigh this much (characters, bytes: whatever bounds its memory). */
  maxWeight?: number;
  weigh?: (item: T) => number;
  /** Cancel: checked after each item read; what was read is written, and the run ends. */
  signal?: AbortSignal;
  /** An error of the reading that leaves what came before good (a file broken part way): it is written, and the run ends `broken`. */
  keepsBefore?: (error: unknown) => boolean;
}

/**
 * The one read → check → batch write → progress → cancel skeleton that Import
 * conversations and Restore share: `items` reads and checks (yielding
 * `undefined` for an item it skipped, so a cancel is still seen between
 * skipped ones), and this writes them in batches. One batch is written while
 * the next is read; each write waits for the one before, so batches land in the
 * order read, and memory holds at most two batches besides the item being read.
 * A write that fails ends the run with its error (after the writes before it);
 * an error of the reading does too, unless `keepsBefore` says otherwise.
 */
export async function writeInBatches<T>(items: AsyncIterable<T | undefined>, options: BatchRunOptions<T>): Promise<BatchRunEnd> {
  const { write, onWritten, maxItems, maxWeight = Infinity, weigh, signal, keepsBefore } = options;
  let pending: T[] = [];
  let weight = 0;
  let writing: Promise<void> = Promise.resolve();
  const flush = async () => {
    const batch = pending;
    pending = [];
    weight = 0;
    await writing;
    if (batch.length === 0) return;
    writing = write(batch).then(() => onWritten?.(batch));
    // Marked as handled here: its failure is thrown where it is awaited, before the next batch or at the end.
    writing.catch(() => undefined);
  };

  try {
    for await (const item of items) {
      if (item !== undefined) {
        pending.push(item);
        weight += weigh?.(item) ?? 0;
        if (pending.length >= maxItems || weight >= maxWeight) await flush();
      }
      if (signal?.aborted) {
        await flush();
        await writing;
        return { stop: 'cancelled' };
      }
    }
  } catch (error) {
    if (!keepsBefore?.(error)) {
      await writing.catch(() => undefined);
      throw error;
    }
    await flush();
    await writing;
    return { stop: 'broken', error };
  }
  await flush();
  await writing;
  return { stop: null };
}
