import type { Decision } from '../engine/decision.ts';
import type { PausePoint } from '../engine/records/index.ts';

/**
 * The decision a resolved card records, as a `Decision` again: how a
 * decision made here without a claim (a notification's button, handled by
 * the service worker) is claimed afterwards, like one made offline.
 * Undefined for what no person decided here (a rule, an expiry).
 */
export function decisionOf(pause: PausePoint): Decision | undefined {
  const decision = decisionOnly(pause);
  // The view it was made on goes with it: the owner applies nothing made on another view.
  return decision && pause.viewHash !== undefined ? { ...decision, viewHash: pause.viewHash } : decision;
}

function decisionOnly(pause: PausePoint): Decision | undefined {
  if (pause.status !== 'resolved' || pause.origin === 'rule' || pause.origin === 'elicitation') return undefined;
  const { resolution, reason } = pause;
  if (resolution === 'approve') return { type: 'approve', ...(pause.editedPayload === undefined ? {} : { editedPayload: pause.editedPayload }), ...(reason ? { reply: reason } : {}) };
  if (resolution === 'decline') return { type: 'decline', ...(reason ? { reason } : {}) };
  if (typeof resolution === 'string') return { type: 'choose', option: resolution, ...(reason ? { reply: reason } : {}) };
  if (typeof resolution === 'object' && resolution !== null && !Array.isArray(resolution)) return { type: 'submit', data: resolution as Record<string, unknown> };
  return undefined;
}
