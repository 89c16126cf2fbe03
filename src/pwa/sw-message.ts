/**
 * The messages a page sends its service worker, and the ones it gets back.
 * Plain types, checked by hand on both sides: zod stays out of the page's
 * start-up and out of the service worker's (see sw.ts).
 */
export type PageToServiceWorker =
  /** A card became pending; notify if no tab is visible (read from storage, not from the message). */
  | { type: 'pausepoint:approval-pending'; pausePointId: string }
  /** A card is still pending after the reminder delay: notify once more, the same way. */
  | { type: 'pausepoint:approval-reminder'; pausePointId: string }
  /** Close a card's notification: it was decided or expired. */
  | { type: 'pausepoint:approval-settled'; pausePointId: string }
  /** Nothing to do: the event itself keeps the worker running while a tab is visible (keep-service-worker-warm.ts). */
  | { type: 'pausepoint:keep-warm' }
  /** The workbox-window update flow's "take over now", after the user pressed Reload. */
  | { type: 'SKIP_WAITING' };

export type ServiceWorkerToPage =
  | { type: 'pausepoint:open-card'; conversationId: string; pausePointId: string }
  /**
   * A notification's Approve or Decline on a card of a conversation another
   * device runs: the page decides it as its card's button would, through its
   * worker, which claims the decision on the sync server (the service worker
   * cannot). The page opens the card too, which says what the claim came to.
   * `viewHash` is the hash of the card's decision view when the notification
   * was shown: the decision binds to it, as a card's button's does.
   */
  | { type: 'pausepoint:decide-card'; conversationId: string; pausePointId: string; action: 'approve' | 'decline'; viewHash: string };

/** Checks a message from the service worker by hand (see above). */
export function readServiceWorkerMessage(data: unknown): ServiceWorkerToPage | null {
  if (typeof data !== 'object' || data === null) return null;
  const { type, conversationId, pausePointId, action, viewHash } = data as Record<string, unknown>;
  if (typeof conversationId !== 'string' || typeof pausePointId !== 'string') return null;
  if (type === 'pausepoint:open-card') return { type, conversationId, pausePointId };
  if (type === 'pausepoint:decide-card' && (action === 'approve' || action === 'decline') && typeof viewHash === 'string' && /^[0-9a-f]{64}$/.test(viewHash)) {
    return { type, conversationId, pausePointId, action, viewHash };
  }
  return null;
}

/** Checks a message from a page by hand: only the shapes above, with nothing else carried along. */
export function readPageMessage(data: unknown): PageToServiceWorker | null {
  if (typeof data !== 'object' || data === null) return null;
  const { type, pausePointId } = data as Record<string, unknown>;
  switch (type) {
    case 'pausepoint:keep-warm':
    case 'SKIP_WAITING':
      return { type };
    case 'pausepoint:approval-pending':
    case 'pausepoint:approval-reminder':
    case 'pausepoint:approval-settled':
      return typeof pausePointId === 'string' ? { type, pausePointId } : null;
    default:
      return null;
  }
}
