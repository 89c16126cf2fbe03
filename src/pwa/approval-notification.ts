import { TOOL_CHANGED } from '../engine/decide-by-rules.ts';
import type { PausePoint } from '../engine/records/index.ts';
import type { McpServerRecord } from '../mcp/mcp-server-record.ts';
import { RISK_TEXT } from '../engine/risk-label.ts';
import { showControls } from '../engine/show-controls.ts';

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
}

/**
 * Whether a card can be decided from its notification: only a plain approval,
 * which needs no input, whose notification shows the whole call — the tool,
 * its target and every argument, uncut (`callText`) — and whose tool is the one
 * the user saw before. A choice, a form, an unknown outcome or a server's
 * question need the card (and an edited payload needs the editor); a call too
 * long to show, or of a changed tool, needs the card's full account. Their
 * notification only opens the app on them: an Approve there would be blind.
 */
export function acceptsNotificationActions(pause: PausePoint, context: NotificationContext = {}): boolean {
  return (
    pause.status === 'pending' &&
    pause.kind === 'approval' &&
    (pause.origin === 'model' || pause.origin === 'gate') &&
    context.definitionChanged !== true &&
    callText(pause).whole
  );
}

/**
 * The call as a notification's body says it. A tool's card (`gate`): the
 * tool — for an MCP tool, its name on the server and the server's host, the
 * call's target — then each argument as `name: JSON`, so a string cannot pass
 * for another line. The model's own question (`model`): its description as
 * plain text (code and link targets kept), then its payload the same way.
 * `whole` when that fits `NOTIFICATION_LIMIT` (the title too, for the model's
 * question, whose title is part of it): only then may Approve be offered.
 */
export function callText(pause: PausePoint, { reminder = false }: { reminder?: boolean } = {}): { text: string; whole: boolean } {
  const lines = (
    pause.origin === 'model' ? [...plainLines(pause.description), ...payloadLines(pause.payload, false)] : [toolLine(pause), ...payloadLines(pause.payload, true)]
  ).map((line) => showControls(line, false));
  const text = lines.join('\n');
  // Counted as shown: the body's first line carries the risk label, the title its prefix (both were left out, so a
  // call one line too long — its last argument cut — was offered Approve).
  const shown = `${riskPrefix(pause)}${text}`.split('\n');
  const wrapped = shown.reduce((sum, line) => sum + Math.max(1, Math.ceil([...line].length / NOTIFICATION_LIMIT.lineWidth)), 0);
  const titleFits = [...notificationTitle(pause, reminder)].length <= NOTIFICATION_LIMIT.title;
  return { text, whole: wrapped <= NOTIFICATION_LIMIT.lines && titleFits };
}

/** The body's lead: the card's risk label, as a word, as on the card (a record from before labels: unknown). */
function riskPrefix(pause: PausePoint): string {
  return `${RISK_TEXT[pause.risk ?? 'unknown']}: `;
}

function notificationTitle(pause: PausePoint, reminder: boolean): string {
  return `${reminder ? 'Still waiting' : 'Approval needed'}: ${showControls(pause.title, false)}`;
}

function toolLine(pause: PausePoint): string {
  if (!pause.mcp) return `Tool: ${pause.toolName}`;
  // A stored URL that does not parse is shown as it is.
  const host = URL.canParse(pause.mcp.serverUrl) ? new URL(pause.mcp.serverUrl).host : pause.mcp.serverUrl;
  return `Tool: ${pause.mcp.toolName} on ${host}`;
}

function payloadLines(payload: unknown, forTool: boolean): string[] {
  if (payload === null || payload === undefined) return forTool ? ['(no arguments)'] : [];
  if (typeof payload !== 'object' || Array.isArray(payload)) return [JSON.stringify(payload)];
  const entries = Object.entries(payload);
  if (entries.length === 0) return forTool ? ['(no arguments)'] : [];
  return entries.map(([name, value]) => `${name}: ${JSON.stringify(value) ?? 'null'}`);
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
 * one per card, replaced, never stacked). One that offers Approve shows the
 * whole call; any other shows the description's first words and opens the card.
 * Its body starts with the card's risk label.
 */
export function approvalNotification(
  pause: PausePoint,
  { reminder = false, definitionChanged = false }: { reminder?: boolean } & NotificationContext = {},
): { title: string; options: ApprovalNotificationOptions } {
  const actionable = acceptsNotificationActions(pause, { definitionChanged }) && callText(pause, { reminder }).whole;
  const said = actionable ? callText(pause, { reminder }).text : `${showControls(shortDescription(pause.description), false)} Tap to answer in the app.`.trim();
  const body = `${riskPrefix(pause)}${said}`;
  return {
    title: notificationTitle(pause, reminder),
    options: {
      body,
      tag: pause.id,
      icon: '/icon-192.png',
      data: { pausePointId: pause.id, conversationId: pause.conversationId },
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
      tag: data.pausePointId,
      icon: '/icon-192.png',
      data,
      actions: [],
    },
  };
}

/** Reads a notification's data back: it round-trips through the browser, so it is checked like any input. */
export function readNotificationData(data: unknown): ApprovalNotificationData | null {
  if (typeof data !== 'object' || data === null) return null;
  const { pausePointId, conversationId, viewHash } = data as Record<string, unknown>;
  if (typeof pausePointId !== 'string' || typeof conversationId !== 'string' || !pausePointId || !conversationId) return null;
  return typeof viewHash === 'string' && /^[0-9a-f]{64}$/.test(viewHash) ? { pausePointId, conversationId, viewHash } : { pausePointId, conversationId };
}
