import type { PausePoint } from '../engine/records/index.ts';
import { RISK_TEXT } from '../engine/risk-label.ts';

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
 * Whether a card can be decided from its notification: only a plain approval,
 * which needs no input. A choice, a form, an unknown outcome or a server's
 * question need the card (and an edited payload needs the editor), so their
 * notification only opens the app on them.
 */
export function acceptsNotificationActions(pause: PausePoint): boolean {
  return pause.status === 'pending' && pause.kind === 'approval' && (pause.origin === 'model' || pause.origin === 'gate');
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

/** The title and options of a pending card's notification (tagged with its id: one per card, replaced, never stacked); its body starts with the card's risk label. */
export function approvalNotification(pause: PausePoint, { reminder = false } = {}): { title: string; options: ApprovalNotificationOptions } {
  const actionable = acceptsNotificationActions(pause);
  const hint = actionable ? '' : ' Tap to answer in the app.';
  return {
    title: `${reminder ? 'Still waiting' : 'Approval needed'}: ${pause.title}`,
    options: {
      // The risk label leads, as a word, as on the card (a record from before labels: unknown).
      body: `${RISK_TEXT[pause.risk ?? 'unknown']}: ${shortDescription(pause.description)}${hint}`.trim(),
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
  const { pausePointId, conversationId } = data as Record<string, unknown>;
  return typeof pausePointId === 'string' && typeof conversationId === 'string' && pausePointId && conversationId
    ? { pausePointId, conversationId }
    : null;
}
