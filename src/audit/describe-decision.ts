import type { PausePoint } from '../engine/records/pause-point.ts';

export type DecisionFacts = Pick<PausePoint, 'status' | 'kind' | 'resolution' | 'options' | 'editedPayload' | 'expiredReason'>;

/** The decision in a few words, for the audit view: "Approved with edits", "Chose “Flight”", "Abandoned". */
export function describeDecision(pp: DecisionFacts): string {
  if (pp.status === 'pending') return 'Awaiting decision';
  if (pp.status === 'expired') {
    if (pp.expiredReason === 'timeout') return 'Expired (timed out)';
    if (pp.expiredReason === 'abandoned') return 'Abandoned (the conversation moved on)';
    if (pp.expiredReason === 'lost') return 'Lost (the call that asked ended first)';
    return 'Expired';
  }
  const { resolution } = pp;
  if (typeof resolution === 'string') {
    if (pp.kind === 'choice' && pp.options?.includes(resolution)) return `Chose “${resolution}”`;
    if (resolution === 'approve') return pp.editedPayload === undefined || pp.editedPayload === null ? 'Approved' : 'Approved with edits';
    if (resolution === 'decline') return 'Declined';
    return `Resolved: ${resolution}`;
  }
  if (pp.kind === 'data_entry' && typeof resolution === 'object' && resolution !== null) return 'Submitted the form';
  return 'Resolved';
}
