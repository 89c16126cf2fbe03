import type { Decision } from './decision.ts';
import { decisionMessage } from './decision-message.ts';
import type { EngineContext } from './engine-context.ts';
import { expirySettlement, isDue } from './pause-expiry.ts';
import type { MessageDraft, Settlement } from './storage-port.ts';
import type { ApprovalRule, Conversation, ConversationState, DecidedBy, DeviceSignature, PausePoint } from './records/index.ts';
import { resolvedPausePoint } from './resolve-decision.ts';
import { limitDecisionNotice } from './spending-gate.ts';
import type { SignedOutcomes } from './signed-outcomes.ts';
import { validateDecision } from './validate-decision.ts';
import { decisionView, VIEW_CHANGED } from './decision-view.ts';
import { toolChangedNow } from './tool-changed-now.ts';
import { viewHash } from './view-hash.ts';

export { VIEW_CHANGED };

/**
 * The compare-and-set's decision, made on the pending record the storage
 * transaction just read (`StoragePort.settlePausePoint`): the resolved pause
 * point, its decision message, and the conversation's next state. The
 * engine's `decide` and the service worker's notification actions both settle
 * through this one function, so a decision is recorded (and audited) the same
 * way wherever it was made, and the first one wins. A `rule` (a card's
 * `Always allow`) is stored only if this settlement commits.
 *
 * After the last pending card of a paused conversation is decided, the
 * conversation is `running` under `owner`. A tab that decides runs it at once;
 * an owner that runs nothing (the service worker) leaves it to the tabs, whose
 * workers take over any active conversation no live lock holds.
 */
export function decisionSettlement(
  ctx: Pick<EngineContext, 'clock' | 'ids' | 'tools' | 'owner'>,
  pending: PausePoint,
  decision: Decision,
  decidedBy: DecidedBy,
  now: number,
  rule?: ApprovalRule,
  /** Whether the card's tool changed since it was made (tool-changed-now.ts); read from `ctx.tools` when not given. */
  toolChanged?: boolean,
  /**
   * The deciding device's signature of this decision (signed-decision.ts),
   * made before the transaction: stored on the card only if the decision is
   * taken, never on an expiry or a refusal.
   */
  signature?: DeviceSignature,
  /**
   * The deciding device's signatures of what it settles itself
   * (signed-outcomes.ts): a card found past its time is expired (or declined,
   * `If nobody decides`) only with this device's signature over exactly that
   * record; without one yet, nothing is written, and the caller signs it and
   * settles again. None given: the expiry is stored unsigned.
   */
  outcomes?: SignedOutcomes,
): Settlement {
  const update = (conversation: Conversation, stillPending: number) => afterDecision(conversation, stillPending, ctx.owner, ctx.clock.now());
  // A card past its time takes no decision, even if no sweep has seen it yet:
  // it is expired in this same transaction, and the run that follows tells the
  // model and answers the call it guarded. At the press's time, which every attempt shares.
  if (isDue(pending, now)) {
    const expiry = expirySettlement({ ...ctx, clock: { ...ctx.clock, now: () => now } }, pending, 'timeout');
    const pausePoint = outcomes ? outcomes.attach(pending, expiry.pausePoint, toolChanged) : expiry.pausePoint;
    if (!pausePoint) return { commit: false, reason: 'This card’s time is up: its expiry is signed before it is stored.' };
    return { ...expiry, pausePoint, update };
  }
  // A decision is for the view the person was shown: the card as it would run now must show the same.
  if (decision.viewHash !== undefined) {
    const changed = toolChanged ?? toolChangedNow(pending, ctx.tools.get(pending.toolName));
    const edit = decision.type === 'approve' ? decision.editedPayload : undefined;
    if (viewHash(decisionView({ pause: pending, toolChanged: changed, edit })) !== decision.viewHash) {
      return { commit: false, reason: VIEW_CHANGED, code: 'view_changed' };
    }
  }
  const checked = validateDecision(pending, decision, ctx.tools);
  if (!checked.ok) return { commit: false, reason: checked.message };
  const decided = resolvedPausePoint(pending, checked, now, decidedBy);
  const resolved = signature ? { ...decided, deviceSignature: signature } : decided;
  // A limit card is answered to the engine, not the model: its decision is a notice for the user.
  const message: MessageDraft =
    pending.origin === 'limit'
      ? { v: 1, id: ctx.ids.uuid(), conversationId: pending.conversationId, createdAt: now, role: 'notice', content: limitDecisionNotice(resolved) }
      : {
          v: 1,
          id: ctx.ids.uuid(),
          conversationId: pending.conversationId,
          createdAt: now,
          role: 'user',
          content: decisionMessage(resolved),
          decision: { pausePointId: pending.id },
          // On a view's call: the app is answered with the call's result, and the model is not told (read-history.ts).
          ...(pending.fromView ? { fromView: pending.fromView } : {}),
        };
  return { commit: true, pausePoint: resolved, messages: [message], update, ...(rule ? { rule } : {}) };
}

/**
 * A paused conversation's state once a decision is stored, in its
 * transaction: still paused (one fewer) or running under `owner`. Like a sent
 * message, an owner that dies before its run starts leaves a run for another
 * tab to recover.
 */
function afterDecision(conversation: Conversation, stillPending: number, owner: string, now: number): Conversation {
  if (conversation.state.kind !== 'paused') return conversation;
  const state: ConversationState = stillPending > 0 ? { kind: 'paused', pending: stillPending } : { kind: 'running', owner, since: now };
  return { ...conversation, state };
}
