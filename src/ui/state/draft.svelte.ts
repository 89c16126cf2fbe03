/**
 * A half-typed message, kept per conversation across reloads.
 *
 * Stored in localStorage rather than sessionStorage: sessionStorage dies with
 * the tab, and closing a tab by mistake must not lose what the user wrote (the
 * product's promise). The cost is that two tabs on the same conversation share
 * one draft, the last keystroke winning — acceptable for text nobody sent yet.
 */
const PREFIX = 'pausepoint:draft:';

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch (error) {
    // Storage can be disabled by the browser's privacy settings; drafts then live in memory only.
    console.warn('Pausepoint: drafts will not survive a reload', error);
    return null;
  }
}

export function draftKey(conversationId: string | null): string {
  return PREFIX + (conversationId ?? 'new');
}

export class Draft {
  /** Where it is kept (`draftKey`): how a view's words find the composer on screen (src/ui/mcp-apps/view-requests.ts). */
  readonly key: string;
  readonly #store: Storage | null;
  text = $state('');
  /** MCP Apps: the server whose view put words here (`ui/message`), until they are sent or cleared. */
  fromView = $state<string | null>(null);

  constructor(conversationId: string | null, store: Storage | null = storage()) {
    this.key = draftKey(conversationId);
    this.#store = store;
    this.text = store?.getItem(this.key) ?? '';
  }

  /** Writes the current text (or forgets it when empty). A full quota only costs persistence. */
  save(): void {
    try {
      if (this.text) this.#store?.setItem(this.key, this.text);
      else this.#store?.removeItem(this.key);
    } catch (error) {
      console.warn('Pausepoint: could not keep the draft', error);
    }
  }

  clear(): void {
    this.text = '';
    this.fromView = null;
    this.save();
  }
}

/**
 * The drafts of the composers on screen. A reload (a new version) must not cut
 * off someone typing: the text would survive in storage, but the thought would
 * not. Page-wide on purpose: there is one page, and at most one composer on it.
 */
// eslint-disable-next-line svelte/prefer-svelte-reactivity -- read on demand (canReload), never rendered
export const onScreen = new Set<Draft>();

/** Marks a draft as being edited on screen until the returned function is called. */
export function showDraft(draft: Draft): () => void {
  onScreen.add(draft);
  return () => onScreen.delete(draft);
}

/** Whether a composer on screen holds text that was not sent. */
export function hasUnsentDraft(): boolean {
  for (const draft of onScreen) if (draft.text.trim() !== '') return true;
  return false;
}

/** Forgets a deleted conversation's draft. */
export function forgetDraft(conversationId: string, store: Storage | null = storage()): void {
  store?.removeItem(draftKey(conversationId));
}
