import type { Decision } from '../engine/decision.ts';
import { decisionMessage } from '../engine/decision-message.ts';
import type { PausePoint } from '../engine/records/index.ts';
import { resolveDecision, resolvedPausePoint } from '../engine/resolve-decision.ts';

/**
 * The synthetic message the model will receive if `decision` is made on
 * `pending`: the engine's own formatter, applied to the record as the engine
 * would resolve it (its resolve functions, not a copy of them).
 */
export function previewDecision(pending: PausePoint, decision: Decision): string {
  return decisionMessage(resolvedPausePoint(pending, resolveDecision(pending, decision), Date.now()));
}
