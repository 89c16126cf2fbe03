import type { Conversation, PausePoint } from '../../engine/records/index.ts';
import { conversationPage, type ConversationPage } from '../../storage/conversations-repo.ts';
import type { PausepointDb } from '../../storage/db.ts';
import { pageSettings } from '../../storage/live-settings.ts';
import { messageTail, type MessageTail } from '../../storage/messages-repo.ts';
import { pausePointsOf, pendingApprovals, type PendingApprovals } from '../../storage/pause-points-repo.ts';
import type { Settings } from '../../storage/settings-repo.ts';
import { loadCardView } from '../cards/decision-view-loader.svelte.ts';
import { loadMarkdown } from '../markdown/markdown-renderer.svelte.ts';
import { TAIL_PAGE } from './conversation-tail.svelte.ts';
import type { Route } from './route.ts';

/** How many conversations the sidebar reads at first (and per "Show more"). */
export const SIDEBAR_PAGE = 50;

/** Gives its value to the first taker only: a view opened later reads live, never a stale copy. */
export class Once<T> {
  #value: { value: T } | undefined;

  constructor(value: T) {
    this.#value = { value };
  }

  take(): { value: T } | undefined {
    const taken = this.#value;
    this.#value = undefined;
    return taken;
  }
}

/**
 * Everything the first screen shows, read at once before the app mounts: the
 * settings (setup or app?), the pending approvals, the sidebar's first page and,
 * when the address names a conversation, its record, its newest messages and
 * its cards, with the markdown renderer loaded for them. Each view's live query
 * is seeded with its part (`Once`), so the first render is the whole screen.
 *
 * Why: read by the views' own live queries, these were a waterfall — the
 * settings first (the shell waits for them), then the conversation's three
 * reads once its view had mounted, each started by Dexie's `liveQuery` from a
 * timer of its own, with a frame of the empty shell painted in between. A
 * reload with a pending card waited for all of it before its Approve could be
 * pressed (bench:latency's row c).
 */
export interface FirstScreen {
  settings: Once<Settings | undefined>;
  approvals: Once<PendingApprovals>;
  sidebar: Once<ConversationPage>;
  /** The conversation the address names, if any. */
  conversation?: { id: string; record: Once<Conversation | undefined>; tail: Once<MessageTail>; pauses: Once<PausePoint[]> };
  /**
   * Reads another conversation's part the same way, for a view about to open
   * on it: a push's link (CardLink) once its card is here, so that the view
   * draws the card in its first render instead of mounting empty and reading
   * its three live queries one timer after another (bench:push).
   */
  readAhead(id: string): Promise<void>;
}

/** A conversation's part of the screen, read at once: its record, newest messages and cards. */
async function readConversationScreen(db: PausepointDb, id: string): Promise<NonNullable<FirstScreen['conversation']>> {
  const [record, tail, pauses] = await Promise.all([db.conversations.get(id), messageTail(db, id, TAIL_PAGE), pausePointsOf(db, id)]);
  return { id, record: new Once(record), tail: new Once(tail), pauses: new Once(pauses) };
}

/** Reads the first screen; undefined if that fails or takes longer than `timeoutMs` (the app then reads as it goes). */
export async function readFirstScreen(db: PausepointDb, route: Route, timeoutMs = 1000): Promise<FirstScreen | undefined> {
  const id = route.view === 'conversation' ? route.id : null;
  // Opened on a push's link (`#card=<id>`): what shows the card loads now, beside the worker's start and its sync,
  // instead of once the card is here (bench:push). Not awaited: the first screen does not show the card yet.
  if (globalThis.location?.hash.startsWith('#card=')) void Promise.all([loadMarkdown(), loadCardView()]);
  const reads = Promise.all([
    pageSettings(db),
    pendingApprovals(db),
    conversationPage(db, { limit: SIDEBAR_PAGE }),
    id ? readConversationScreen(db, id) : undefined,
    // A conversation's text is markdown: its renderer loads meanwhile, so the first render shows the text rendered, not its source.
    id ? loadMarkdown() : undefined,
    // So does the decision view's code for the cards it or the Approvals inbox shows: the first render shows them whole.
    id || route.view === 'approvals' ? loadCardView() : undefined,
  ]);
  reads.catch(() => undefined); // Reported below, unless it comes after the timeout: then the views report it.
  let timer: ReturnType<typeof setTimeout> | undefined;
  // A database held up (another tab's upgrade waiting on this one, say) must not hold up the app: it shows its own loading and errors.
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), timeoutMs)));
  try {
    const read = await Promise.race([reads, late]);
    if (!read) return undefined;
    const [settings, approvals, sidebar, conversation] = read;
    const screen: FirstScreen = {
      settings: new Once(settings),
      approvals: new Once(approvals),
      sidebar: new Once(sidebar),
      ...(conversation ? { conversation } : {}),
      readAhead: async (other) => void (screen.conversation = await readConversationScreen(db, other)),
    };
    return screen;
  } catch (error) {
    console.warn('Pausepoint: the first screen could not be read ahead; the views read it themselves', error);
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}
