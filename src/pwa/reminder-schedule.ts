import { browserTimers, type Timers } from '../common/timers.ts';

/** What a reminder needs to know of a pending card. */
export interface RemindableCard {
  id: string;
  createdAt: number;
}

/** The timers a schedule runs on (src/common/timers.ts). */
export type ReminderTimers = Timers;

/**
 * One reminder per pending card, `delay` after the card appeared, while this
 * page is open: there is no server, so with every tab closed nothing reminds.
 * A card already past its reminder time when first seen (it fell due while no
 * tab was open) is not reminded: the user is opening the app now, and every
 * start would otherwise remind of every old card. A card decided, expired or
 * reminded drops out; a changed delay reschedules the cards not yet reminded.
 */
export class ReminderSchedule {
  readonly #remind: (cardId: string) => void;
  readonly #timers: ReminderTimers;
  readonly #scheduled = new Map<string, unknown>();
  readonly #done = new Set<string>();
  /** When each card was first seen: the rule above is about that moment, whatever the delay becomes. */
  readonly #seenAt = new Map<string, number>();
  #delayMs: number | null = null;

  constructor(remind: (cardId: string) => void, timers: ReminderTimers = browserTimers) {
    this.#remind = remind;
    this.#timers = timers;
  }

  /** The pending cards and the reminder delay (null: off). Call on every change of either. */
  update(pending: readonly RemindableCard[], delayMinutes: number | null | undefined): void {
    const delayMs = delayMinutes ? delayMinutes * 60_000 : null;
    const delayChanged = delayMs !== this.#delayMs;
    this.#delayMs = delayMs;
    const now = this.#timers.now();
    const ids = new Set(pending.map((card) => card.id));
    for (const id of [...this.#scheduled.keys()]) {
      if (!ids.has(id) || delayChanged) this.#cancel(id);
    }
    for (const id of [...this.#seenAt.keys()]) {
      if (!ids.has(id)) {
        this.#seenAt.delete(id);
        this.#done.delete(id);
      }
    }
    for (const card of pending) {
      if (!this.#seenAt.has(card.id)) this.#seenAt.set(card.id, now);
      if (delayMs === null || this.#done.has(card.id) || this.#scheduled.has(card.id)) continue;
      const due = card.createdAt + delayMs;
      if (due < this.#seenAt.get(card.id)!) continue;
      this.#scheduled.set(
        card.id,
        this.#timers.setTimeout(() => {
          this.#scheduled.delete(card.id);
          this.#done.add(card.id);
          this.#remind(card.id);
        }, Math.max(0, due - now)),
      );
    }
  }

  /** Cancels every reminder: the page is going away. */
  dispose(): void {
    for (const id of [...this.#scheduled.keys()]) this.#cancel(id);
  }

  #cancel(id: string): void {
    this.#timers.clearTimeout(this.#scheduled.get(id));
    this.#scheduled.delete(id);
  }
}
