/**
 * What a page tells this device's workers about itself on the
 * `pausepoint:viewing` BroadcastChannel: whether it is visible and which
 * cards it shows (one conversation's, or every pending one in Approvals), so
 * that no push is sent for a card someone is looking at. Sent on every
 * change and again every VIEWING_REFRESH_MS while visible: a tab that died
 * without saying so stops counting once its last word is VIEWING_STALE_MS old.
 */
export const VIEWING_CHANNEL = 'pausepoint:viewing';
export const VIEWING_REFRESH_MS = 10_000;
export const VIEWING_STALE_MS = 25_000;

export interface ViewingMessage {
  type: 'viewing';
  tabId: string;
  visible: boolean;
  /** A conversation's id, `*` for every pending card (Approvals), or null for a view that shows none. */
  shows: string | null;
}

/** A message from the channel, checked field by field: any tab of the origin can post there. */
export function readViewingMessage(data: unknown): ViewingMessage | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const m = data as Record<string, unknown>;
  if (m.type !== 'viewing' || typeof m.tabId !== 'string' || typeof m.visible !== 'boolean') return undefined;
  if (m.shows !== null && typeof m.shows !== 'string') return undefined;
  return { type: 'viewing', tabId: m.tabId, visible: m.visible, shows: m.shows };
}
