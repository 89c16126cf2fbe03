import { afterNextPaint } from './after-paint.ts';

/**
 * How many items of a long list to render: `first` at once, then `step` more
 * after each paint until the list is covered, and from then on all of them. The
 * first screenful (the oldest pending card, the newest messages) is painted
 * before the rest is built, and no frame builds more than `first` or `step`
 * items, so opening a long list is neither slow to show nor one long task.
 *
 * An empty list counts as not read yet: the limit stays at `first` until items
 * come. Create it while a component initialises: its schedule lives in an effect
 * and ends with its owner. A new list (another conversation) wants a new instance.
 */
export class RenderLimit {
  #limit = $state(0);

  constructor(total: () => number, { first, step }: { first: number; step: number }) {
    this.#limit = first;
    $effect(() => {
      if (this.#limit === Infinity) return;
      const count = total();
      if (count > 0 && this.#limit >= count) {
        // Covered: items added from now on (a new message, a new card) show at once.
        this.#limit = Infinity;
        return;
      }
      if (this.#limit >= count) return;
      return afterNextPaint(() => {
        this.#limit += step;
      });
    });
  }

  /** How many items to render now; Infinity once the whole list has been. */
  get current(): number {
    return this.#limit;
  }
}
