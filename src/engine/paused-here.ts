import type { PausePoint } from './records/index.ts';

/** How many pause points are remembered: far more than are ever pending at once in one tab. */
const CAPACITY = 256;

/**
 * Which conversation each pause point this engine made or found pending
 * belongs to, so a decision on one can take that conversation's lock before
 * it is stored, and read the step that follows in the decision's own
 * transaction (`StoragePort.settleAndLoadStep`). Only a hint: the storage
 * settles whatever the pause point's record says, and a pause point not
 * remembered here is decided the ordinary way (settle, then run).
 */
export class PausedHere {
  /** Prototype-free by construction (a Map): stored ids are untrusted input. Map order is insertion order. */
  readonly #conversations = new Map<string, string>();

  note(pausePoint: Pick<PausePoint, 'id' | 'conversationId'>): void {
    this.#conversations.delete(pausePoint.id);
    this.#conversations.set(pausePoint.id, pausePoint.conversationId);
    for (const oldest of this.#conversations.keys()) {
      if (this.#conversations.size <= CAPACITY) break;
      this.#conversations.delete(oldest);
    }
  }

  conversationOf(pausePointId: string): string | undefined {
    return this.#conversations.get(pausePointId);
  }

  /** Once it is decided (or expired): a pause point is settled once. */
  forget(pausePointId: string): void {
    this.#conversations.delete(pausePointId);
  }
}
