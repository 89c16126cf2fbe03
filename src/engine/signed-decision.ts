import type { Decision } from './decision.ts';
import { decisionView } from './decision-view.ts';
import type { EngineContext } from './engine-context.ts';
import { jsonEqual } from './json-equal.ts';
import type { DeviceSignature, PausePoint } from './records/index.ts';
import type { Settlement } from './storage-port.ts';
import { toolChangedNow } from './tool-changed-now.ts';
import { viewHash } from './view-hash.ts';

/**
 * What a device signs for one decision: the exact object the audit log's
 * `device_signature.signed` shows (keep the names: they are the format's
 * contract). `card_id` and `view_hash` bind it to the card as it was shown
 * (a rule's or an expiry's: the card as it stood); `status` and `resolution`
 * are what was decided, as the audit entry says them (`resolution` is the
 * chosen option or the form's values, null for an expiry); `by` who decided
 * on this device; `decided_at` when (ISO 8601). The rest only when there is
 * something to say: the edited arguments, the reason or reply, the batch, the
 * rule, why it expired.
 */
export interface SignedDecision {
  card_id: string;
  view_hash: string | null;
  status: 'resolved' | 'expired';
  resolution: unknown;
  by: 'person' | 'rule' | 'timeout' | 'expiry';
  decided_at: string;
  edited_payload?: unknown;
  reason?: string;
  batch_id?: string;
  rule_id?: string;
  expired_reason?: string;
}

/**
 * A person's decision as they made it, before anything is read: the press
 * path signs it and then settles in one transaction. The view hash is the
 * one the decision carries (every surface sends the view it showed).
 */
export function personSigned(cardId: string, decision: Decision, at: number): SignedDecision {
  const reason = (decision.type === 'decline' ? decision.reason : decision.type === 'submit' ? undefined : decision.reply)?.trim();
  const batchId = decision.type === 'approve' || decision.type === 'decline' ? decision.batchId : undefined;
  return {
    card_id: cardId,
    view_hash: decision.viewHash ?? null,
    status: 'resolved',
    resolution: resolutionOf(decision),
    by: 'person',
    decided_at: new Date(at).toISOString(),
    ...(decision.type === 'approve' && decision.editedPayload !== undefined ? { edited_payload: decision.editedPayload } : {}),
    ...(reason ? { reason } : {}),
    ...(batchId !== undefined ? { batch_id: batchId } : {}),
  };
}

function resolutionOf(decision: Decision): unknown {
  switch (decision.type) {
    case 'approve':
    case 'decline':
      return decision.type;
    case 'choose':
      return decision.option;
    case 'submit':
      return decision.data;
  }
}

/**
 * A decision this device made without a person — a rule's, an expiry's, the
 * timeout's decline — read off the pause point it leaves (`settled`), with
 * the view hash of the card it was about (`card`: as it stood before).
 */
export function outcomeSigned(settled: PausePoint, cardViewHash: string): SignedDecision {
  const by = settled.status === 'expired' ? 'expiry' : settled.decidedBy?.via === 'timeout' ? 'timeout' : settled.origin === 'rule' ? 'rule' : 'person';
  return {
    card_id: settled.id,
    view_hash: cardViewHash,
    status: settled.status === 'expired' ? 'expired' : 'resolved',
    resolution: settled.resolution ?? null,
    by,
    decided_at: new Date(settled.resolvedAt ?? 0).toISOString(),
    ...(settled.editedPayload !== undefined ? { edited_payload: settled.editedPayload } : {}),
    ...(settled.reason ? { reason: settled.reason } : {}),
    ...(settled.batchId !== undefined ? { batch_id: settled.batchId } : {}),
    ...(by === 'rule' && settled.rule ? { rule_id: settled.rule.id } : {}),
    ...(settled.expiredReason ? { expired_reason: settled.expiredReason } : {}),
  };
}

/** The hash of the card's decision view as the engine would run it now: what a rule or an expiry decided about. */
export function cardViewHash(ctx: Pick<EngineContext, 'tools'>, card: PausePoint, toolChanged?: boolean): string {
  return viewHash(decisionView({ pause: card, toolChanged: toolChanged ?? toolChangedNow(card, ctx.tools.get(card.toolName)) }));
}

/** Signs `signed` with the engine's signer; undefined when it has none. */
export async function signDecision(ctx: Pick<EngineContext, 'signer'>, signed: SignedDecision): Promise<DeviceSignature | undefined> {
  return ctx.signer?.sign({ ...signed });
}

type Committed = Extract<Settlement, { commit: true }>;

/**
 * A settlement this device makes without a person (an expiry, the timeout's
 * decline), signed before its compare-and-set: worked out once on `card` as
 * read, at a time fixed now, and signed; then worked out again on the pending
 * record the transaction reads, at the same time, which carries the signature
 * only if it comes to exactly what was signed. (It does unless the card
 * changed between the read and the transaction; it then stands unsigned
 * rather than signed for something it is not.)
 */
export async function signedSettlement(
  ctx: Pick<EngineContext, 'clock' | 'tools' | 'signer'>,
  card: PausePoint,
  settle: (pending: PausePoint, clock: EngineContext['clock']) => Committed,
): Promise<(pending: PausePoint) => Committed> {
  const at = ctx.clock.now();
  const clock: EngineContext['clock'] = { ...ctx.clock, now: () => at };
  if (!ctx.signer) return (pending) => settle(pending, clock);
  const hash = cardViewHash(ctx, card);
  const signed = outcomeSigned(settle(card, clock).pausePoint, hash);
  const signature = await signDecision(ctx, signed);
  return (pending) => {
    const settled = settle(pending, clock);
    if (!signature || !jsonEqual(outcomeSigned(settled.pausePoint, hash), signed)) return settled;
    return { ...settled, pausePoint: { ...settled.pausePoint, deviceSignature: signature } };
  };
}

/**
 * The signature another device's claim carried for `decision`, if it is the
 * signature of exactly this decision on this card (any time): the owner
 * stores it with the decision it applies. One signed for anything else is
 * dropped, and the decision stands unsigned. Whether the key is a member's is
 * checked where keys are known (the audit file's verifier, the membership log).
 */
export function claimedSignature(cardId: string, decision: Decision, signature: DeviceSignature | undefined): DeviceSignature | undefined {
  const at = typeof signature?.signed.decided_at === 'string' ? Date.parse(signature.signed.decided_at) : Number.NaN;
  if (!signature || Number.isNaN(at)) return undefined;
  return jsonEqual(signature.signed, { ...personSigned(cardId, decision, at) }) ? signature : undefined;
}
