import type { DecideResult, Decision } from './decision.ts';
import type { DevicesPort } from './devices-port.ts';
import type { EngineContext } from './engine-context.ts';
import type { ApprovalRule, DecidedBy, DeviceSignature } from './records/index.ts';
import { claimedSignature } from './signed-decision.ts';
import { validateDecision } from './validate-decision.ts';
import { decisionView } from './decision-view.ts';
import { toolChangedNow } from './tool-changed-now.ts';
import { viewHash } from './view-hash.ts';

/** The compare-and-set here (the engine's own decision path), for this decision or the one that won on the server. */
export type DecideHere = (decision: Decision, decidedBy: DecidedBy, rule?: ApprovalRule, signature?: DeviceSignature) => Promise<DecideResult>;

/**
 * With sync on, a decision is claimed on the server before anything is
 * applied: the device whose create the server took first decides, whichever
 * devices press what and when. The owner applies the winner (its own or
 * another's) through `decideHere`; another device only claims, and the owner
 * applies it when it reads it. An owner that cannot reach the server decides
 * here, as without sync, and its claim follows when it can (see `ClaimOutcome`).
 */
export async function claimThenDecide(
  ctx: Pick<EngineContext, 'storage' | 'tools' | 'rules'>,
  devices: DevicesPort,
  pausePointId: string,
  decision: Decision,
  decidedBy: DecidedBy,
  rule: ApprovalRule | undefined,
  decideHere: DecideHere,
  /** This device's signature of the decision: it travels in the claim, and is stored wherever the decision is applied. */
  signature?: DeviceSignature,
): Promise<DecideResult> {
  const { storage, tools } = ctx;
  const pending = await storage.getPausePoint(pausePointId);
  if (!pending) return { outcome: 'not_found' };
  if (pending.status !== 'pending') return { outcome: 'already_decided', status: pending.status, decidedBy: pending.decidedBy };
  // Checked before it is claimed: a claim cannot be taken back, and the owner would refuse it.
  const checked = validateDecision(pending, decision, tools);
  if (!checked.ok) return { outcome: 'invalid', message: checked.message };
  // So is its view: a claim on a view this device no longer shows would bind every device to it.
  if (decision.viewHash !== undefined) {
    const edit = decision.type === 'approve' ? decision.editedPayload : undefined;
    if (viewHash(decisionView({ pause: pending, toolChanged: toolChangedNow(pending, tools.get(pending.toolName)), edit })) !== decision.viewHash) return { outcome: 'changed' };
  }
  const conversation = await storage.getConversation(pending.conversationId);
  if (!conversation) return { outcome: 'not_found' };
  const here = devices.runsHere(conversation.ownerDevice);
  const claim = await devices.claim(pending, decision, decidedBy, signature);
  switch (claim.outcome) {
    case 'local':
      return decideHere(decision, decidedBy, rule, signature);
    case 'queued':
      return here ? decideHere(decision, decidedBy, rule, signature) : { outcome: 'queued' };
    case 'won':
      if (here) return decideHere(decision, decidedBy, rule, signature);
      // The rule goes where rules go (they sync): the owner's next call reads it.
      if (rule) await ctx.rules.put(rule, decidedBy);
      return { outcome: 'sent', owner: conversation.ownerDevice?.name ?? 'another device' };
    case 'lost': {
      if (!here) return { outcome: 'already_decided', status: 'resolved', decidedBy: claim.decidedBy };
      // The owner checks the winner against its own view (decision-settlement.ts). A claim made on a view the
      // card no longer has is void here: this device's own decision, on the view it was shown, is applied instead
      // (the claiming device's card then says its decision was not applied).
      const applied = await decideHere(claim.decision, claim.decidedBy, undefined, claimedSignature(pausePointId, claim.decision, claim.signature));
      if (applied.outcome === 'changed') return decideHere(decision, decidedBy, rule, signature);
      return { outcome: 'already_decided', status: 'resolved', decidedBy: claim.decidedBy };
    }
  }
}
