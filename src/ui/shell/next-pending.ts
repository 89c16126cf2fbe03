import { tick } from 'svelte';
import type { PausePoint } from '../../engine/records/index.ts';
import type { Announcer } from '../state/announcer.svelte.ts';
import type { Router } from '../state/router.svelte.ts';

const FIND_FOR_MS = 3_000;

/**
 * Opens the oldest pending card in its conversation and focuses it. A view that
 * opens fresh focuses the card named by the route itself; one already open
 * (the same conversation) does not, so the card is looked for here until it
 * is rendered.
 */
export async function goToNextPending(
  pending: readonly PausePoint[],
  { router, announcer, doc = document }: { router: Router; announcer: Announcer; doc?: Document },
): Promise<void> {
  const oldest = pending[0];
  if (!oldest) {
    announcer.announce('Nothing is waiting for your approval.');
    return;
  }
  router.navigate({ view: 'conversation', id: oldest.conversationId, cardId: oldest.id });
  await tick();
  const until = Date.now() + FIND_FOR_MS;
  while (Date.now() < until) {
    // The id is a stored uuid, but ids are untrusted text: escape it for the selector.
    const found = doc.querySelector<HTMLElement>(`[data-pause-point="${CSS.escape(oldest.id)}"]`);
    if (found) {
      found.focus({ preventScroll: true });
      found.scrollIntoView?.({ block: 'start' });
      return;
    }
    await new Promise((resolve) => requestAnimationFrame(resolve));
  }
}
