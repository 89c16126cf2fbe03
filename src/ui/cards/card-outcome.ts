import type { PausePoint } from '../../engine/records/index.ts';
import { linkToOpen } from './link-to-open.ts';

export interface CardOutcome {
  label: string;
  /** The reason or reply, the expiry cause, or a note about edits. */
  detail?: string;
  tone: 'pending' | 'approved' | 'declined' | 'expired';
}

/** How a card's stored record reads to the user once it left `pending`. */
export function cardOutcome(p: PausePoint): CardOutcome {
  if (p.status === 'pending') return { label: 'Pending', tone: 'pending' };
  if (p.status === 'expired') {
    return {
      label: 'Expired',
      detail:
        p.expiredReason === 'abandoned'
          ? 'Abandoned when a new message was sent'
          : p.expiredReason === 'lost'
            ? 'The request was lost: the call that asked ended before a decision (the tab closed or the run stopped)'
            : 'Timed out before a decision',
      tone: 'expired',
    };
  }
  const reason = p.reason?.trim() || undefined;
  const resolution = p.resolution;
  if (typeof resolution === 'string' && p.options?.includes(resolution)) {
    return { label: `Chose “${resolution}”`, detail: reason, tone: 'approved' };
  }
  if (resolution === 'decline') return { label: 'Declined', detail: reason, tone: 'declined' };
  // A server's link is approved by opening it: the record says what happened.
  if (resolution === 'approve' && linkToOpen(p)) return { label: 'Opened the link', detail: reason, tone: 'approved' };
  if (resolution === 'approve') {
    const edited = p.editedPayload !== undefined ? 'Approved with your edits to the payload' : undefined;
    return { label: 'Approved', detail: [edited, reason].filter(Boolean).join(' — ') || undefined, tone: 'approved' };
  }
  return { label: 'Submitted', detail: reason, tone: 'approved' };
}

/** Who decided, as the card says it: "this tab", or the other tab's or device's label. */
export function deciderText(p: PausePoint, tabId: string): string | null {
  if (!p.decidedBy) return null;
  // "(by sync)": it reached this device's record from another device, through the sync server.
  return p.decidedBy.tabId === tabId ? 'this tab' : `${p.decidedBy.label}${p.decidedBy.via === 'sync' ? ' (by sync)' : ''}`;
}

/** What kind of card this is, for its badge. */
export function kindLabel(p: PausePoint): string {
  if (p.origin === 'unknown_outcome') return 'Outcome unknown';
  if (p.origin === 'gate') return 'Tool approval';
  if (p.origin === 'rule') return 'Approval rule';
  if (p.origin === 'elicitation') return 'Server request';
  if (p.origin === 'limit') return 'Spending limit';
  return p.kind === 'data_entry' ? 'Form' : p.kind === 'choice' ? 'Choice' : 'Approval';
}
