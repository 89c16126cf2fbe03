import { shortcutKey } from '../state/keyboard-target.ts';

/**
 * How long a card must have been on screen before its keys decide: the delay
 * browsers give their permission prompts, so that a key already on its way
 * (the next letter of a message, a held key) never lands on a card that has
 * just appeared.
 */
export const KEYS_ARM_MS = 500;

/**
 * The `A` / `D` shortcuts of one card. A key decides only when all of these hold:
 * - focus is in the card, and only a person puts it there (a click, Tab, `J`/`K`,
 *   Next pending approval): a card that appears never takes the focus
 *   (ConversationView announces it instead);
 * - the card has been on screen for `KEYS_ARM_MS`, counted again for each card
 *   shown (`pauseId`) and each time the page comes back into view;
 * - the press is not a repeat: a key held down across one decision must not
 *   decide the card that comes next.
 * `armed` is rendered as the card's `aria-keyshortcuts`, so what is offered is
 * what works.
 */
export class CardKeys {
  #armed = $state(false);

  /** Call from a component's script: the clock lives as long as the component. */
  constructor(pauseId: () => string) {
    $effect(() => {
      pauseId();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const arm = () => {
        this.#armed = false;
        clearTimeout(timer);
        if (!document.hidden) timer = setTimeout(() => (this.#armed = true), KEYS_ARM_MS);
      };
      arm();
      document.addEventListener('visibilitychange', arm);
      return () => {
        clearTimeout(timer);
        document.removeEventListener('visibilitychange', arm);
      };
    });
  }

  get armed(): boolean {
    return this.#armed;
  }

  /** The shortcut (`a` or `d`) this key press on `card` decides with, or null when it must do nothing. */
  decisionKey(event: KeyboardEvent, card: HTMLElement | undefined): 'a' | 'd' | null {
    if (!this.#armed || event.repeat || !card?.contains(document.activeElement)) return null;
    const key = shortcutKey(event);
    return key === 'a' || key === 'd' ? key : null;
  }
}
