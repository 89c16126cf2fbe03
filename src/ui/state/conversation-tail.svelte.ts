import type { Message } from '../../engine/records/index.ts';
import type { PausepointDb } from '../../storage/db.ts';
import { untrack } from 'svelte';
import { liveTail, type MessageTail } from '../../storage/messages-repo.ts';

/** Messages read per page: the first read, and each "Show earlier messages". */
export const TAIL_PAGE = 200;

const NONE: readonly Message[] = [];

/**
 * The part of a conversation its view shows: the newest messages, live, and a
 * way to show older ones. Every streaming write re-runs the query, so it reads
 * a bounded tail (`liveTail`), never the whole history.
 *
 * Showing earlier messages re-subscribes with a larger limit; until that read
 * arrives the current rows stay on screen (a flash of nothing would throw the
 * reader's scroll position away). Create it while a component initialises:
 * the subscription lives in an effect and ends with its owner.
 */
export class ConversationTail {
  #limit = $state(TAIL_PAGE);
  #messages: readonly Message[] = $state.raw(NONE);
  #hasEarlier = $state(false);
  /** The limit the rows on screen were read with; differs from `#limit` while a larger read is on its way. */
  #shownLimit: number | null = $state(null);
  #error: unknown = $state.raw(undefined);

  /** `seed`: the first conversation's tail as read before the app mounted (first-screen.ts), shown until the live read arrives. */
  constructor(db: PausepointDb, conversationId: () => string | null, seed?: MessageTail) {
    let shownFor: string | null = null;
    if (seed) {
      this.#messages = seed.messages;
      this.#hasEarlier = seed.hasEarlier;
      this.#shownLimit = TAIL_PAGE;
      shownFor = untrack(conversationId);
    }
    $effect(() => {
      const id = conversationId();
      const limit = this.#limit;
      if (id !== shownFor) {
        // Another conversation: never show its rows under this one's title.
        this.#messages = NONE;
        this.#hasEarlier = false;
        this.#shownLimit = null;
        shownFor = id;
      }
      if (id === null) return;
      const subscription = liveTail(db, id, limit).subscribe({
        next: (tail) => {
          this.#messages = tail.messages;
          this.#hasEarlier = tail.hasEarlier;
          this.#shownLimit = limit;
          this.#error = undefined;
        },
        error: (error: unknown) => {
          this.#error = error;
          this.#shownLimit = limit;
        },
      });
      return () => subscription.unsubscribe();
    });
  }

  /** The newest messages (every role), oldest first. */
  get messages(): readonly Message[] {
    return this.#messages;
  }

  /** Older messages exist than those in `messages`. */
  get hasEarlier(): boolean {
    return this.#hasEarlier;
  }

  /** A read of the conversation has arrived or failed: until then nothing of it is known, not even that it is empty. */
  get loaded(): boolean {
    return this.#shownLimit !== null;
  }

  /** The latest read (for the current limit) has arrived or failed. */
  get ready(): boolean {
    return this.#shownLimit === this.#limit;
  }

  get error(): unknown {
    return this.#error;
  }

  /** Reads another page of older messages. Ignored while a read is on its way, so repeated calls add one page. */
  showEarlier(): void {
    if (!this.ready || !this.#hasEarlier) return;
    this.#limit += TAIL_PAGE;
  }
}
