/**
 * MCP Apps (issue 36, point 3): what a view may ask of the page besides tool
 * calls. The bridge (view) calls these for `ui/message` and `ui/open-link`;
 * neither acts on the view's word alone: a message waits in the composer for
 * the person's `Send`, a link opens only after a confirmation naming it.
 */
// The composer's drafts are in the start chunk already, and this file loads on demand with the view: a static import
// shares them, where a dynamic `import()` would put a module namespace object and the bundler's runtime for it on the
// start path (npm run size).
import { Draft, draftKey, onScreen } from '../state/draft.svelte.ts';

/** A `ui/message` request: the view proposes a user message for the conversation its call row is in. */
export interface ViewMessage {
  conversationId: string;
  /** The call row whose view asked. */
  viewCallId: string;
  /** The server's name as Settings shows it: the composer says the words came from its view. */
  serverName: string;
  /** SEP-1865: always `user`. */
  role: 'user';
  /** The message's content blocks as the view sent them; only text is taken. */
  content: readonly { type: string; text?: unknown }[];
}

/** `proposed`: the words wait in the composer, marked as from the view, until the person presses `Send` (or clears them). */
export type ViewMessageAnswer = { outcome: 'proposed' } | { outcome: 'refused'; reason: string };

/** A `ui/open-link` request. */
export interface ViewLink {
  url: string;
  /** The server's name as Settings shows it, named in the confirmation. */
  serverName: string;
}

/** `opened` after the person confirmed; `declined` when they did not; `refused` for what is never opened (not http/https). */
export type ViewLinkAnswer = { outcome: 'opened' } | { outcome: 'declined' } | { outcome: 'refused'; reason: string };

/** The most of a view's message put into the composer: the person reads all of it before sending. */
export const MAX_VIEW_MESSAGE = 20_000;

/**
 * Puts the view's words into the composer of its conversation, marked as from
 * the view (the composer says whose they are); never sends them. Words the
 * person had typed stay, the view's after them.
 */
export async function proposeMessageFromView(message: ViewMessage): Promise<ViewMessageAnswer> {
  if (message.role !== 'user') return { outcome: 'refused', reason: 'A view may only propose a message from the person (role user).' };
  const text = message.content
    .flatMap((block) => (block.type === 'text' && typeof block.text === 'string' ? [block.text] : []))
    .join('\n\n')
    .trim();
  if (text === '') return { outcome: 'refused', reason: 'Only text can be put into the message box.' };
  if (text.length > MAX_VIEW_MESSAGE) return { outcome: 'refused', reason: `The message is longer than ${MAX_VIEW_MESSAGE} characters.` };
  // The composer on screen shows them at once; without one they wait in the conversation's stored draft.
  const draft = [...onScreen].find((d) => d.key === draftKey(message.conversationId)) ?? new Draft(message.conversationId);
  draft.text = draft.text.trim() ? `${draft.text}\n\n${text}` : text;
  draft.fromView = message.serverName;
  draft.save();
  return { outcome: 'proposed' };
}

/**
 * Asks the person, in a dialog naming the whole URL (`ask`: McpAppView shows
 * OpenLinkDialog and resolves with their answer), whether to open it; opens it
 * in a new tab (no opener, no referrer) only on `Open link`. Only http and
 * https addresses are ever offered. The dialog is rendered by the view's
 * component rather than mounted here: mount/unmount from a lazy chunk would
 * put Svelte's unmount on the start path, whose runtime the chunks share.
 */
export async function confirmOpenLink(link: ViewLink, ask: (link: ViewLink) => Promise<boolean>): Promise<ViewLinkAnswer> {
  const url = URL.canParse(link.url) ? new URL(link.url) : null;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return { outcome: 'refused', reason: 'Only http and https links are opened.' };
  if (!(await ask({ url: url.href, serverName: link.serverName }))) return { outcome: 'declined' };
  window.open(url.href, '_blank', 'noopener,noreferrer');
  return { outcome: 'opened' };
}
