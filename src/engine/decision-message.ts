import type { PausePoint } from './records/index.ts';

/**
 * The synthetic user message that tells the model what the human decided, in
 * the contract's form: `Approval <kind>: <resolution>[ - <reason or reply>]`,
 * then the final payload or the form data when there is one.
 */
export function decisionMessage(decided: PausePoint): string {
  const head = `Approval ${decided.kind}: ${resolutionText(decided)}`;
  const reason = decided.reason?.trim() ? ` - ${decided.reason.trim()}` : '';
  return head + reason + detail(decided);
}

function resolutionText(p: PausePoint): string {
  if (p.status === 'expired') return 'expired';
  if (typeof p.resolution === 'string') return p.resolution;
  return 'submitted';
}

function detail(p: PausePoint): string {
  if (p.status !== 'resolved') return '';
  if (p.kind === 'data_entry' && typeof p.resolution === 'object' && p.resolution !== null) {
    return `\nData: ${JSON.stringify(p.resolution)}`;
  }
  if (p.resolution !== 'approve' || p.payload === null) return '';
  if (p.editedPayload !== undefined) return `\nPayload (edited by the user): ${JSON.stringify(p.editedPayload)}`;
  return `\nPayload: ${JSON.stringify(p.payload)}`;
}

/** Why an expired pause point was set aside, in words the model and the user read. */
export function expiryReason(p: PausePoint): string {
  if (p.expiredReason === 'lost') return 'the request that asked for it was lost: the run waiting for the answer ended first';
  return p.expiredReason === 'abandoned'
    ? 'the user sent a new message instead of deciding'
    : 'no decision was made before it expired';
}
