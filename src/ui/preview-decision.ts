import type { Decision } from '../engine/decision.ts';
import { decisionMessage } from '../engine/decision-message.ts';
import type { PausePoint } from '../engine/records/index.ts';

/**
 * The synthetic message the model will receive if `decision` is made on
 * `pending`: the engine's own formatter, applied to the record as the decision
 * would resolve it (the same mapping as the engine's validateDecision).
 */
export function previewDecision(pending: PausePoint, decision: Decision): string {
  const resolved: PausePoint = { ...pending, status: 'resolved', resolvedAt: Date.now(), editedPayload: undefined, reason: undefined };
  switch (decision.type) {
    case 'approve': {
      resolved.resolution = 'approve';
      resolved.reason = decision.reply;
      const edited = decision.editedPayload;
      if (edited !== undefined && JSON.stringify(edited) !== JSON.stringify(pending.payload)) resolved.editedPayload = edited;
      break;
    }
    case 'decline':
      resolved.resolution = 'decline';
      resolved.reason = decision.reason;
      break;
    case 'choose':
      resolved.resolution = decision.option;
      resolved.reason = decision.reply;
      break;
    case 'submit':
      resolved.resolution = decision.data;
      break;
  }
  return decisionMessage(resolved);
}
