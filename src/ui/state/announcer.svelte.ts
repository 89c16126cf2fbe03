/**
 * Polite announcements for screen readers: decisions made, cards arriving,
 * conversations deleted. The conversation's own state bar is a separate
 * `role="status"` region; this one is a plain `aria-live` region so the two are
 * never confused by assistive technology or by tests looking for the status.
 */
export class Announcer {
  #message = $state('');
  #timer: ReturnType<typeof setTimeout> | undefined;

  get message(): string {
    return this.#message;
  }

  announce(text: string): void {
    // Clearing first makes a repeated message ("Approved") announce again.
    this.#message = '';
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#message = text;
    }, 50);
  }
}
