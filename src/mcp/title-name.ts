/** How much of a server's or tool's name a card title holds. */
export const MAX_TITLE_NAME = 40;

/**
 * A name a server chose (its tools', its host), as a card's title shows it —
 * and so the notification's, which is made of the title: at most
 * `MAX_TITLE_NAME` characters and an ellipsis, with control and invisible
 * formatting characters (line breaks, bidirectional overrides) shown as �.
 * A title must say what the card is about at a glance; a server must not be
 * able to push what matters out of it, or forge another line. The card's
 * body shows the whole name.
 */
export function titleName(name: string): string {
  const shown = [...name.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, '\uFFFD')];
  return shown.length > MAX_TITLE_NAME ? `${shown.slice(0, MAX_TITLE_NAME - 1).join('')}…` : shown.join('');
}
