import { decisionMessage, expiryReason } from './decision-message.ts';
import type { EngineContext } from './engine-context.ts';
import type { MessageDraft, Settlement } from './storage-port.ts';
import type { PausePoint } from './records/index.ts';

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
  return next.status === 'resolved' && current.expiresAt !== null && (next.resolvedAt ?? Number.POSITIVE_INFINITY) >= current.expiresAt;
}

/**
 * Sets a pending pause point aside: timed out, or abandoned when the user
 * moved on. A gate or unknown-outcome pause is answered by its call's tool
 * result on the next run; the model's own card by a message, written here.
 */
export function expirySettlement(
  { clock, ids }: Pick<EngineContext, 'clock' | 'ids'>,
  pending: PausePoint,
  why: NonNullable<PausePoint['expiredReason']>,
): Extract<Settlement, { commit: true }> {
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
