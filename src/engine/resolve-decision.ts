import type { Decision } from './decision.ts';
import type { DecidedBy, PausePoint } from './records/index.ts';

/** What a decision answers its card with: the resolution, the note given with it, and arguments the user edited. */
export interface Resolution {
  resolution: unknown;
  /** The decline reason, or the reply given with an approval or a choice. */
  reason?: string;
  /** Only when the user changed them. */
  editedPayload?: unknown;
  /** The batch this decision was one of (`Approve all`, `Decline all`). */
  batchId?: string | undefined;
  /** The hash of the decision view the decision was made on (view-hash.ts), for the audit log. */
  viewHash?: string | undefined;
}

/**
 * What a decision resolves its card to, without checking that it fits the
 * card (validateDecision does that first). Pure: the UI's preview of "what
 * the model will be told" uses it too, so the preview cannot drift from the
 * engine (src/ui/preview-decision.ts).
 */
export function resolveDecision(pending: PausePoint, decision: Decision): Resolution {
  const resolved = resolveOnly(pending, decision);
  return decision.viewHash === undefined ? resolved : { ...resolved, viewHash: decision.viewHash };
}

function resolveOnly(pending: PausePoint, decision: Decision): Resolution {
  switch (decision.type) {
    case 'approve': {
      const { editedPayload, reply, batchId } = decision;
      const unchanged = editedPayload === undefined || JSON.stringify(editedPayload) === JSON.stringify(pending.payload);
      return { resolution: 'approve', reason: reply, editedPayload: unchanged ? undefined : editedPayload, batchId };
    }
    case 'decline':
      return { resolution: 'decline', reason: decision.reason, batchId: decision.batchId };
    case 'choose':
      return { resolution: decision.option, reason: decision.reply };
    case 'submit':
      return { resolution: decision.data };
  }
}

/** The card as a resolution leaves it: what is stored, and what the model is told about (decisionMessage). */
export function resolvedPausePoint(pending: PausePoint, { resolution, reason, editedPayload, batchId, viewHash }: Resolution, resolvedAt: number, decidedBy?: DecidedBy): PausePoint {
  return {
    ...pending,
    status: 'resolved',
    resolution,
    resolvedAt,
    ...(decidedBy ? { decidedBy } : {}),
    ...(reason?.trim() ? { reason: reason.trim() } : {}),
    ...(editedPayload !== undefined ? { editedPayload } : {}),
    ...(batchId !== undefined ? { batchId } : {}),
    ...(viewHash !== undefined ? { viewHash } : {}),
  };
}
