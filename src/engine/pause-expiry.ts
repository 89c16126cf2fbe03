import { decisionMessage, expiryReason } from './decision-message.ts';
import type { EngineContext } from './engine-context.ts';
import type { MessageDraft, Settlement } from './storage-port.ts';
import type { PausePoint } from './records/index.ts';

/**
 * When a new card's time is up, and what happens then: the sooner of
 * Settings' expiry and its `If nobody decides` decline. A decline that comes
 * no later than the expiry wins the tie: the person asked for a decision.
 */
export async function cardDeadline(ctx: Pick<EngineContext, 'settings'>, now: number): Promise<Pick<PausePoint, 'expiresAt' | 'onTimeout'>> {
  const [expiry, decline] = await Promise.all([ctx.settings.expiryMs(), ctx.settings.declineAfterMs?.() ?? null]);
  if (decline !== null && (expiry === null || decline <= expiry)) return { expiresAt: now + decline, onTimeout: 'decline' };
  return { expiresAt: expiry === null ? null : now + expiry };
}

/** Whether a pause point's time is up at `now`: from `expiresAt` on, it can no longer be answered. */
export function isDue(pause: PausePoint, now: number): boolean {
  return pause.expiresAt !== null && pause.expiresAt <= now;
}

/**
 * Whether settling `current` as `next` would resolve it at or after its
 * expiry. Both storages refuse such a settlement in the compare-and-set, so
 * no caller can approve a card past its time, whether or not it was swept.
 */
export function resolvesPastExpiry(current: PausePoint, next: PausePoint): boolean {
  // The timeout's own decline is made at its expiry, by design.
  if (current.onTimeout === 'decline' && next.decidedBy?.via === 'timeout') return false;
  return next.status === 'resolved' && current.expiresAt !== null && (next.resolvedAt ?? Number.POSITIVE_INFINITY) >= current.expiresAt;
}

/** Who declines a card that nobody decided in time (`onTimeout: 'decline'`): the timeout, as the audit log says. */
export const TIMEOUT_DECIDER_LABEL = 'Timeout (If nobody decides)';

/**
 * Sets a pending pause point aside: timed out, or abandoned when the user
 * moved on. A gate or unknown-outcome pause is answered by its call's tool
 * result on the next run; the model's own card by a message, written here.
 * A card that Settings' `If nobody decides` declines (`onTimeout: 'decline'`)
 * is declined instead when its time is up — by whichever path finds it due,
 * the engine's sweep or a press that came too late, inside the same
 * compare-and-set, so a person's decision that came first still wins.
 */
export function expirySettlement(
  { clock, ids, owner }: Pick<EngineContext, 'clock' | 'ids'> & Partial<Pick<EngineContext, 'owner'>>,
  pending: PausePoint,
  why: NonNullable<PausePoint['expiredReason']>,
): Extract<Settlement, { commit: true }> {
  if (why === 'timeout' && pending.onTimeout === 'decline') return timeoutDecline({ clock, ids, owner: owner ?? 'timeout' }, pending);
  const expired: PausePoint = { ...pending, status: 'expired', resolvedAt: clock.now(), expiredReason: why };
  const messages: MessageDraft[] =
    pending.origin === 'model'
      ? [
          {
            v: 1,
            id: ids.uuid(),
            conversationId: pending.conversationId,
            createdAt: clock.now(),
            role: 'user',
            content: `${decisionMessage(expired)} - ${expiryReason(expired)}`,
            decision: { pausePointId: pending.id },
          },
        ]
      : [];
  return { commit: true, pausePoint: expired, messages };
}

/**
 * The decline `If nobody decides` makes: a resolved decline, decided by the
 * timeout, told to the model as any decline is (its reason says why), and
 * answering a gated call with an explicit rejection on the next run.
 */
function timeoutDecline({ clock, ids, owner }: Pick<EngineContext, 'clock' | 'ids' | 'owner'>, pending: PausePoint): Extract<Settlement, { commit: true }> {
  const now = clock.now();
  const waited = pending.expiresAt === null ? '' : ` within ${waitedText(pending.expiresAt - pending.createdAt)}`;
  const declined: PausePoint = {
    ...pending,
    status: 'resolved',
    resolution: 'decline',
    resolvedAt: now,
    reason: `Nobody decided${waited}: declined automatically (Settings: If nobody decides).`,
    decidedBy: { tabId: owner, deviceId: owner, label: TIMEOUT_DECIDER_LABEL, via: 'timeout' },
  };
  const message: MessageDraft =
    pending.origin === 'limit'
      ? { v: 1, id: ids.uuid(), conversationId: pending.conversationId, createdAt: now, role: 'notice', content: `Declined automatically: ${declined.reason}` }
      : { v: 1, id: ids.uuid(), conversationId: pending.conversationId, createdAt: now, role: 'user', content: decisionMessage(declined), decision: { pausePointId: pending.id } };
  return { commit: true, pausePoint: declined, messages: [message] };
}

function waitedText(ms: number): string {
  const hours = ms / 3_600_000;
  if (hours >= 1 && Number.isInteger(hours)) return `${hours} h`;
  const seconds = Math.round(ms / 1000);
  return seconds < 120 ? `${seconds} s` : `${Math.round(seconds / 60)} min`;
}
