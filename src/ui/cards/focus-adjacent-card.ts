/**
 * `J` / `K`: focuses the card after / before the one focus is in (from
 * outside them all, the first / the last), among the cards under `root`
 * that wait for a decision (those showing their decision form), in the
 * Approvals inbox and in a conversation alike. One of the ways a person
 * moves focus to a card, with a click and Tab: a card never takes it by
 * itself (CardKeys). Loaded on the first press (start-up budget, npm run size).
 */
export function focusAdjacentCard(root: ParentNode, forward: boolean): void {
  const cards = [...root.querySelectorAll<HTMLElement>('section[data-pause-point]')].filter((card) => card.querySelector('form.decision'));
  if (cards.length === 0) return;
  const current = cards.findIndex((card) => card.contains(document.activeElement));
  const next = current === -1 ? (forward ? 0 : cards.length - 1) : Math.min(Math.max(current + (forward ? 1 : -1), 0), cards.length - 1);
  cards[next]!.focus({ preventScroll: true });
  cards[next]!.scrollIntoView?.({ block: 'nearest' });
}
