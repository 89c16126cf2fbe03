import type { Risk } from '../engine/records/pause-point.ts';

/**
 * What one push says, in ntfy's JSON publish form. Built from ids, a count,
 * a risk label and a time only — never from a card's title, description,
 * tool, arguments, conversation or device — because ntfy has no end-to-end
 * encryption and the topic may be on a public server: whoever reads it learns
 * that a decision waits, and nothing about it.
 */
export interface PushMessage {
  topic: string;
  title: string;
  message: string;
  /** ntfy's 1–5; left out (3, default) unless the person chose `Say how risky`. */
  priority?: number;
  tags?: string[];
  /** Opens Pausepoint at the card: an id that means nothing without the person's data. */
  click: string;
}

export interface PushMessageInput {
  topic: string;
  cardId: string;
  /** How many cards are pending on this device's conversations, this one included. */
  pending: number;
  /** The app's URL (origin and base path); the card's id goes in its fragment, which no server receives. */
  appUrl: string;
  /** Set only when the person chose `Say how risky`. */
  risk?: Risk | undefined;
  /** Set when the card will be declined automatically this many ms from now (`If nobody decides`). */
  declineInMs?: number | undefined;
}

const PRIORITY: Record<Risk, number> = { reads: 2, changes: 3, unknown: 3, destructive: 5 };
const TAGS: Record<Risk, string> = { reads: 'eyes', changes: 'pencil2', unknown: 'grey_question', destructive: 'warning' };

export function buildPushMessage(input: PushMessageInput): PushMessage {
  const waiting = input.pending > 1 ? `${input.pending} decisions are waiting` : 'A decision is waiting';
  const message = input.declineInMs === undefined ? waiting : `${waiting}. Declined automatically in ${inWords(input.declineInMs)} unless you decide.`;
  const url = new URL(input.appUrl);
  url.hash = `card=${encodeURIComponent(input.cardId)}`;
  return {
    topic: input.topic,
    title: 'Pausepoint',
    message,
    ...(input.risk ? { priority: PRIORITY[input.risk], tags: [TAGS[input.risk]] } : {}),
    click: url.href,
  };
}

function inWords(ms: number): string {
  const minutes = Math.max(1, Math.round(ms / 60_000));
  if (minutes < 90) return `${minutes} min`;
  return `${Math.round(minutes / 60)} h`;
}
