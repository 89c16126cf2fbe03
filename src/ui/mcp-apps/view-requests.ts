/**
 * MCP Apps (issue 36, point 3): what a view may ask of the page besides tool
 * calls. The bridge (view) calls these for `ui/message` and `ui/open-link`;
 * neither acts on the view's word alone: a message waits in the composer for
 * the person's `Send`, a link opens only after a confirmation naming it.
 */

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

/** Puts the view's words into the composer of its conversation, marked as from the view; never sends them. */
export async function proposeMessageFromView(message: ViewMessage): Promise<ViewMessageAnswer> {
  void message;
  return { outcome: 'refused', reason: 'not wired yet' };
}

/** Asks the person, in a dialog naming the URL, whether to open it; opens it in a new tab only on yes. */
export async function confirmOpenLink(link: ViewLink): Promise<ViewLinkAnswer> {
  void link;
  return { outcome: 'refused', reason: 'not wired yet' };
}
