import { browserTimers, type Timers } from '../common/timers.ts';
import type { Risk } from '../engine/records/pause-point.ts';

/** What the schedule knows of a pending card: times and a risk label, nothing it could leak. */
export interface PushableCard {
  id: string;
  createdAt: number;
  risk?: Risk | undefined;
  /** When `If nobody decides` declines it automatically, if it does. */
  declineAt?: number | undefined;
}

export interface PushPlan {
  graceMs: number;
  /** Settings' reminder delay, null when off: each reminder pushes again. */
  reminderMs: number | null;
}

export type PushReason = 'new' | 'reminder' | 'decline_warning';

/** What a send came to: sent, failed in a way worth retrying (offline, 429, 5xx), or failed for good. */
export type SendOutcome = 'sent' | 'retry' | 'failed';

/** The timers a schedule runs on (src/common/timers.ts). */
export type PushTimers = Timers;

/** Waits between tries of one push: a short outage passes unnoticed, a long one costs five requests. */
export const RETRY_DELAYS_MS = [5_000, 15_000, 60_000, 300_000] as const;

/** How long before an automatic decline its warning goes out: a quarter of the wait, at most 15 minutes. */
export function warningLeadMs(card: Pick<PushableCard, 'createdAt' | 'declineAt'>): number {
  return card.declineAt === undefined ? 0 : Math.min(15 * 60_000, Math.max(0, (card.declineAt - card.createdAt) / 4));
}

interface CardState {
  card: PushableCard;
  /** Since when no visible tab of this device shows it (its grace runs from there); null while one does. */
  unseenSince: number | null;
  done: Set<PushReason>;
  timers: Map<PushReason, unknown>;
}

/**
 * When each pending card is pushed: once when it is still pending a grace
 * period after it appeared (or after a visible tab of this device last showed
 * it: nobody needs a push for a card they are looking at), once more at
 * Settings' reminder, and once before `If nobody decides` declines it. A card
 * decided or expired drops out with its timers, so a card decided within its
 * grace sends nothing. A push that fails for a passing reason is tried again
 * after each of RETRY_DELAYS_MS while its card is pending; a failure never
 * touches the card. Cards already past their grace when the schedule first
 * sees them (pending while no tab of this device was open) are not pushed for
 * that: the person is opening the app now; their later events still are.
 */
export class PushSchedule {
  readonly #send: (card: PushableCard, reason: PushReason) => Promise<SendOutcome>;
  readonly #timers: PushTimers;
  readonly #cards = new Map<string, CardState>();
  readonly #startedAt: number;
  #plan: PushPlan | null = null;
  #shown: ReadonlySet<string> = new Set();

  constructor(send: (card: PushableCard, reason: PushReason) => Promise<SendOutcome>, timers: PushTimers = browserTimers) {
    this.#send = send;
    this.#timers = timers;
    this.#startedAt = timers.now();
  }

  /** The pending cards, which of them a visible tab shows, and the plan (null: pushes are off). Call on every change. */
  update(pending: readonly PushableCard[], shown: ReadonlySet<string>, plan: PushPlan | null): void {
    const now = this.#timers.now();
    const planChanged = JSON.stringify(plan) !== JSON.stringify(this.#plan);
    this.#plan = plan;
    this.#shown = shown;
    const ids = new Set(pending.map((card) => card.id));
    for (const [id, state] of this.#cards) {
      if (!ids.has(id)) {
        this.#clear(state);
        this.#cards.delete(id);
      }
    }
    for (const card of pending) {
      const seen = shown.has(card.id);
      let state = this.#cards.get(card.id);
      let changed = planChanged;
      if (!state) {
        state = { card, unseenSince: seen ? null : card.createdAt, done: new Set(), timers: new Map() };
        this.#cards.set(card.id, state);
      } else if (seen !== (state.unseenSince === null)) {
        state.unseenSince = seen ? null : now;
        changed = true;
      }
      if (state.card.declineAt !== card.declineAt) changed = true;
      state.card = card;
      if (changed) this.#clear(state);
      this.#schedule(state, now);
    }
  }

  /** Cancels every timer: the service stops (another worker takes over, or pushes were turned off). */
  dispose(): void {
    for (const state of this.#cards.values()) this.#clear(state);
    this.#cards.clear();
  }

  #schedule(state: CardState, now: number): void {
    const plan = this.#plan;
    if (!plan) return;
    const { card } = state;
    const due: [PushReason, number | null][] = [
      ['new', state.unseenSince === null ? null : Math.max(card.createdAt, state.unseenSince) + plan.graceMs],
      ['reminder', plan.reminderMs === null ? null : card.createdAt + plan.reminderMs],
      ['decline_warning', card.declineAt === undefined ? null : card.declineAt - warningLeadMs(card)],
    ];
    for (const [reason, at] of due) {
      if (at === null || state.done.has(reason) || state.timers.has(reason)) continue;
      // Pending while no tab of this device was open: its grace, reminder or warning is not sent late.
      if ((reason === 'new' ? card.createdAt + plan.graceMs : at) < this.#startedAt) continue;
      this.#arm(state, reason, Math.max(0, at - now), 0);
    }
  }

  #arm(state: CardState, reason: PushReason, ms: number, attempt: number): void {
    state.timers.set(
      reason,
      this.#timers.setTimeout(() => void this.#fire(state, reason, attempt), ms),
    );
  }

  async #fire(state: CardState, reason: PushReason, attempt: number): Promise<void> {
    state.timers.delete(reason);
    if (this.#cards.get(state.card.id) !== state || !this.#plan) return;
    // Nobody needs a push for a card a visible tab shows; it is not sent, and the grace restarts when the tab stops showing it.
    if (this.#shown.has(state.card.id)) {
      if (reason !== 'new') state.done.add(reason);
      return;
    }
    state.done.add(reason);
    const outcome = await this.#send(state.card, reason).catch(() => 'retry' as const);
    if (outcome !== 'retry' || this.#cards.get(state.card.id) !== state) return;
    const delay = RETRY_DELAYS_MS[attempt];
    if (delay === undefined) return;
    state.done.delete(reason);
    this.#arm(state, reason, delay, attempt + 1);
  }

  #clear(state: CardState): void {
    for (const handle of state.timers.values()) this.#timers.clearTimeout(handle);
    state.timers.clear();
  }
}
