import { afterNextPaint } from './after-paint.ts';

/**
 * The first date a page formats with `toLocaleString` costs tens of
 * milliseconds (the browser loads its locale's date patterns), more than the
 * rest of an approval card. Times on screen are therefore written from the first
 * frame after a paint: the cards themselves show at once, their times a frame
 * later, and from then on at once.
 */
let formatting = $state(false);
let scheduled = false;

/** `at` as `Date.prototype.toLocaleString` writes it; '' until the first paint is done. Reactive. */
export function localDateTime(at: number): string {
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- formatted and dropped, never mutated
  if (formatting) return new Date(at).toLocaleString();
  if (!scheduled) {
    scheduled = true;
    afterNextPaint(() => {
      formatting = true;
    });
  }
  return '';
}
