import { TOOL_CHANGED } from '../engine/decide-by-rules.ts';
import type { PausePoint } from '../engine/records/index.ts';
import type { McpServerRecord } from '../storage/records/mcp-server-record.ts';
import { RISK_TEXT } from '../engine/risk-label.ts';
import { showControls } from '../engine/show-controls.ts';
import { decisionView, viewTitle, type DecisionView } from '../engine/decision-view.ts';
import { viewHash } from '../engine/view-hash.ts';

/** The two actions a notification offers; `action` is what `notificationclick` reports. */
export const NOTIFICATION_ACTIONS = [
  { action: 'approve', title: 'Approve' },
  { action: 'decline', title: 'Decline' },
] as const;
export type NotificationAction = (typeof NOTIFICATION_ACTIONS)[number]['action'];

/** What a notification carries, read back (untrusted) in `notificationclick`. */
export interface ApprovalNotificationData {
  pausePointId: string;
  conversationId: string;
  /** On a notification that offers Approve: the hash of the decision view it showed, which its action is bound to. */
  viewHash?: string;
}

/** `showNotification`'s options as the service worker passes them (`actions` is missing from lib.dom's type). */
export interface ApprovalNotificationOptions {
  body: string;
  tag: string;
  icon: string;
  data: ApprovalNotificationData;
  actions: { action: string; title: string }[];
  renotify?: boolean;
}

const BODY_MAX = 140;

/**
 * What a notification shows without cutting, on the platforms Pausepoint
 * meets (Android's expanded notification, the Windows and macOS banners):
 * about four lines of 40 characters in the body, one line of title. Counted
 * as wrapped lines, since the platform wraps a long line and cuts the rest.
 */
export const NOTIFICATION_LIMIT = { lineWidth: 40, lines: 4, title: 48 } as const;

export interface NotificationContext {
  /** The tool changed since it was pinned or allowed, or since the card was made: see `definitionChanged`. */
  definitionChanged?: boolean;
  /** The card's MCP tool, as listed now, is not the one the card was made for (the decision view's `toolChanged`). */
  toolChanged?: boolean;
}

/**
 * Whether a card can be decided from its notification: only a plain approval,
 * which needs no input, whose notification shows its whole decision view
 * (`viewText`) uncut, and whose tool is the one the person saw before. A
 * choice, a form, an unknown outcome or a server's question need the card
 * (and an edited payload needs the editor); a view too long to show, or of a
 * changed tool, needs the card's full account. Their notification only opens
 * the app on them: an Approve there would be blind.
 */
export function acceptsNotificationActions(pause: PausePoint, context: NotificationContext = {}): boolean {
  return plainApproval(pause, context) && viewText(viewOf(pause, context)).whole;
}

/** A pending plain approval of a tool the person saw before: what a notification may decide, if its view fits. */
function plainApproval(pause: PausePoint, context: NotificationContext): boolean {
  return (
    pause.status === 'pending' &&
    pause.kind === 'approval' &&
    (pause.origin === 'model' || pause.origin === 'gate') &&
    context.definitionChanged !== true &&
    context.toolChanged !== true
  );
}

function viewOf(pause: PausePoint, { toolChanged = false }: NotificationContext): DecisionView {
  return decisionView({ pause, toolChanged });
}

/**
 * The decision view (src/engine/decision-view.ts) as a notification says
 * it: every line of the view, in order, as plain text — the title as the
 * notification's title; the risk label leading the line after it (the tool,
 * or the question's first words); each other warning; the description's
 * lines (code and link targets kept); each argument as `name: JSON`, so a
 * string cannot pass for another line. Only the heading of the arguments is
 * left out: `name: value` says what the lines are. `whole` when that fits
 * `NOTIFICATION_LIMIT` counted as the platform wraps it, title prefix
 * included: only then may Approve be offered, bound to the view's hash.
 */
export function viewText(view: DecisionView, { reminder = false }: { reminder?: boolean } = {}): { title: string; text: string; whole: boolean } {
  const lines: string[] = [];
  let lead = '';
  for (const line of view.lines) {
    switch (line.kind) {
      case 'title':
      case 'arguments':
        break;
      case 'warning':
        if (line.warning === 'risk') lead = line.text;
        else lines.push(line.text);
        break;
      case 'tool':
        lines.push(line.text);
        break;
      case 'description':
        lines.push(...plainLines(line.text));
        break;
      case 'argument':
        lines.push(`${line.name}: ${line.value}`);
        break;
    }
  }
  // The risk label leads the first line (every view has one; a record from before labels says unknown).
  lines[0] = lines.length === 0 ? lead : `${lead} · ${lines[0]}`;
  const text = lines.join('\n');
  const wrapped = lines.reduce((sum, line) => sum + Math.max(1, Math.ceil([...line].length / NOTIFICATION_LIMIT.lineWidth)), 0);
  const title = notificationTitle(viewTitle(view), reminder);
  return { title, text, whole: wrapped <= NOTIFICATION_LIMIT.lines && [...title].length <= NOTIFICATION_LIMIT.title };
}

/** The body's lead on a notification that only opens the card: the card's risk label, as a word, as on the card (a record from before labels: unknown). */
function riskPrefix(pause: PausePoint): string {
  return `${RISK_TEXT[pause.risk ?? 'unknown']}: `;
}

/** `text` as the view holds it: control, line-separator and bidi characters already escaped. */
function notificationTitle(text: string, reminder: boolean): string {
  return `${reminder ? 'Still waiting' : 'Approval needed'}: ${text}`;
}

/** Markdown as plain lines that keep everything it says: code as written, a link's target beside its text. */
function plainLines(markdown: string): string[] {
  return markdown
    .replace(/```[^\n]*\n?/g, '')
    .replace(/!?\[([^\]]*)\]\(([^)\s]*)[^)]*\)/g, '$1 ($2)')
    .replace(/[*_`~#>|]/g, '')
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line !== '');
}

/**
 * Whether the card's tool is not the one the user last saw: a rule's card
 * that says the tool changed since the rule was made, or an MCP tool whose
 * listed definition is not the pinned one, or not the one the card was made
 * for, or is gone (`servers`: the stored MCP servers, as the service worker
 * reads them).
 */
export function definitionChanged(pause: PausePoint, servers: readonly McpServerRecord[]): boolean {
  if (pause.description.includes(TOOL_CHANGED)) return true;
  const { mcp } = pause;
  if (!mcp) return false;
  const tool = servers.find((server) => server.id === mcp.serverId)?.tools.find((t) => t.definition.name === mcp.toolName);
  return !tool || tool.hash !== tool.pinned.hash || tool.hash !== mcp.definitionHash;
}

/** The description as one short line of plain text: notifications show no markdown. */
export function shortDescription(markdown: string, max = BODY_MAX): string {
  const plain = markdown
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_`~#>|]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return plain.length > max ? `${plain.slice(0, max - 1).trimEnd()}…` : plain;
}

/**
 * The title and options of a pending card's notification (tagged with its id:
 * one per card, replaced, never stacked). One that offers Approve renders the
 * card's whole decision view (`viewText`) and carries the view's hash, which
 * its action is bound to: an action that arrives after the card changed (an
 * edit elsewhere, its tool changed, a warning added) is refused. Any other
 * shows the description's first words and opens the card.
 */
export function approvalNotification(
  pause: PausePoint,
  { reminder = false, ...context }: { reminder?: boolean } & NotificationContext = {},
): { title: string; options: ApprovalNotificationOptions } {
  const view = viewOf(pause, context);
  // Rendered once. Whether it fits is judged under the first notification's title, as acceptsNotificationActions
  // judges it when the action arrives; a reminder's own title prefix is shorter.
  const rendered = viewText(view);
  const actionable = plainApproval(pause, context) && rendered.whole;
  const body = actionable ? rendered.text : `${riskPrefix(pause)}${showControls(shortDescription(pause.description), false)} Tap to answer in the app.`.trim();
  return {
    title: notificationTitle(viewTitle(view), reminder),
    options: {
      body,
      tag: pause.id,
      icon: '/icon-192.png',
      data: { pausePointId: pause.id, conversationId: pause.conversationId, ...(actionable ? { viewHash: viewHash(view) } : {}) },
      actions: actionable ? NOTIFICATION_ACTIONS.map((a) => ({ ...a })) : [],
      ...(reminder ? { renotify: true } : {}),
    },
  };
}

/** The notification that replaces one whose action came too late: it says so, and offers nothing. */
export function alreadyDecidedNotification(title: string, data: ApprovalNotificationData, status: string): { title: string; options: ApprovalNotificationOptions } {
  return {
    title: `Already ${status === 'expired' ? 'expired' : 'decided'}: ${title}`,
    options: {
      body: status === 'expired' ? 'This request expired before your answer; nothing was decided.' : 'This was decided elsewhere first; your answer changed nothing.',
      // A tag of its own: closing the card's notifications (the tapped one, or an open tab's close once the card
      // is settled) reaches a notification by its tag, and could otherwise take this answer with it.
      tag: outcomeTag(data.pausePointId),
      icon: '/icon-192.png',
      data,
      actions: [],
    },
  };
}

/** The tag of the notification that answers a late action on card `pausePointId`: one per card, the latest replacing it. */
export const outcomeTag = (pausePointId: string) => `${pausePointId}:outcome`;

/** Reads a notification's data back: it round-trips through the browser, so it is checked like any input. */
export function readNotificationData(data: unknown): ApprovalNotificationData | null {
  if (typeof data !== 'object' || data === null) return null;
  const { pausePointId, conversationId, viewHash } = data as Record<string, unknown>;
  if (typeof pausePointId !== 'string' || typeof conversationId !== 'string' || !pausePointId || !conversationId) return null;
  return typeof viewHash === 'string' && /^[0-9a-f]{64}$/.test(viewHash) ? { pausePointId, conversationId, viewHash } : { pausePointId, conversationId };
}
