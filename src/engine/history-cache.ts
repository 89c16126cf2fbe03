import type { CallRecords, CallsOf, StepRecords, StoragePort } from './storage-port.ts';
import type { Conversation, Message, PausePoint } from './records/index.ts';

/** How many conversations keep a cached history: the ones this tab ran last. */
export const HISTORY_CACHE_CONVERSATIONS = 8;

export interface LoadedStep {
  conversation: Conversation | undefined;
  pending: PausePoint[];
  /** The conversation's whole stored history, ordered by `seq`. Shared with the cache: never mutate it. */
  history: readonly Message[];
  /** What storage read along with the step (`StepRecords.alongside`). */
  alongside?: unknown;
  /** With `callsOf`: the records of the calls it named, read in the step's transaction. */
  calls?: CallRecords;
}

/** Which calls' records a step reads with it, chosen from the whole history it read and its conversation (see `StoragePort.loadStep`). */
export type HistoryCallsOf = (history: readonly Message[], conversation: Conversation | undefined) => readonly string[];

/** A step's read from `fromSeq` on: `loadStep`, or a write that reads the step in its own transaction (`appendAndLoadStep`). */
export type StepRead = (fromSeq: number, callsOf?: CallsOf) => Promise<StepRecords>;

/**
 * A loop step's read of storage, with a conversation's history re-read only
 * where it can have changed. Only an optimisation: what it returns is what a
 * full read in the same transaction would return.
 *
 * What this relies on (the StoragePort's message rules): messages are only
 * appended, each `seq` handed out in the transaction that writes it, and only
 * an assistant message that is still `streaming` is ever rewritten. So the
 * cache keeps a conversation's messages up to (not including) its first
 * streaming one, and each step reads again, in the same transaction as the
 * conversation and its pending pause points, everything from the last kept
 * message on — whoever wrote it: this run, a decision from another tab,
 * another tab's run while this one was not holding the conversation.
 *
 * The last kept message is read again on purpose: if another message (or
 * none) holds its place now — the conversation was deleted, then restored from
 * an older backup or another device's copy under the same id — the cache
 * describes some other history and is dropped for a full read. If it is there, the same message id
 * at the same place means the same history before it, since messages are
 * only ever appended after everything they follow.
 *
 * Bounded: the histories of the HISTORY_CACHE_CONVERSATIONS conversations
 * used last, dropped oldest first.
 */
export class HistoryCache {
  /** Per conversation, stored messages that can no longer change; Map order is use order. */
  readonly #settled = new Map<string, readonly Message[]>();

  constructor(
    private readonly storage: StoragePort,
    private readonly capacity = HISTORY_CACHE_CONVERSATIONS,
  ) {}

  /**
   * `read`, when given, makes the first read (a write that reads the step
   * with it); when the cache turns out to describe another history, the full
   * read that follows is a plain `loadStep`, after that write.
   */
  async load(conversationId: string, callsOf?: HistoryCallsOf, read?: StepRead): Promise<LoadedStep> {
    const loadStep: StepRead = (fromSeq, calls) => this.storage.loadStep(conversationId, fromSeq, calls);
    let first = read ?? loadStep;
    const kept = this.#settled.get(conversationId) ?? [];
    const boundary = kept.at(-1);
    if (boundary) {
      // The whole history, joined once: inside the step's transaction when `callsOf` needs it there.
      let history: readonly Message[] | undefined;
      const join = (tail: readonly Message[]) => (history ??= kept.slice(0, -1).concat(tail));
      const continues = (tail: readonly Message[]) => tail[0]?.id === boundary.id;
      const step = await first(boundary.seq, callsOf && ((tail, conversation) => (continues(tail) ? callsOf(join(tail), conversation) : [])));
      if (continues(step.tail)) return this.#remember(conversationId, step, join(step.tail), kept.length - 1);
      this.#settled.delete(conversationId);
      if (!step.conversation) return this.#remember(conversationId, step, [], 0);
      first = loadStep;
    }
    const step = await first(0, callsOf);
    return this.#remember(conversationId, step, step.tail, 0);
  }

  forget(conversationId: string): void {
    this.#settled.delete(conversationId);
  }

  /** How many conversations have a cached history (for tests of the bound). */
  get size(): number {
    return this.#settled.size;
  }

  /** `fresh`: where the messages read by this step start (the kept ones before it hold no streaming message). */
  #remember(conversationId: string, step: StepRecords, history: readonly Message[], fresh: number): LoadedStep {
    const { conversation, pending, alongside, calls } = step;
    this.#settled.delete(conversationId);
    if (conversation) {
      let streaming = -1;
      for (let i = fresh; i < history.length && streaming === -1; i++) {
        const m = history[i];
        if (m?.role === 'assistant' && m.status === 'streaming') streaming = i;
      }
      const settled = streaming === -1 ? history : history.slice(0, streaming);
      if (settled.length > 0) this.#settled.set(conversationId, settled);
      for (const oldest of this.#settled.keys()) {
        if (this.#settled.size <= this.capacity) break;
        this.#settled.delete(oldest);
      }
    }
    return { conversation, pending, history, ...(alongside === undefined ? {} : { alongside }), ...(calls ? { calls } : {}) };
  }
}
