import { expiryReason } from './decision-message.ts';
import type { GateQuestion, ToolDefinition } from './tool-definition.ts';
import type { PausePoint, ToolOutcome } from './records/index.ts';

/** What a call's approval gate says about running it with `args`. */
export type GateDecision =
  /** Run it, with these arguments (the user's edit, when they edited them). */
  | { kind: 'run'; args: unknown; edited: boolean }
  /** Ask this first: no gate pause exists for this attempt yet. */
  | { kind: 'ask'; question: GateQuestion }
  /** The question is asked and not answered yet. */
  | { kind: 'waiting' }
  /** Do not run it: this is the result the model reads. */
  | { kind: 'refused'; content: string; outcome: Extract<ToolOutcome, 'declined' | 'expired'> };

/**
 * Decides a call's gate from what is stored: `gatePause` is the gate's
 * question for this attempt of the call, if it was asked. Pure, so the rules
 * of a later step can be put in front of it without touching it.
 */
export function decideGate(tool: ToolDefinition, args: unknown, gatePause: PausePoint | undefined): GateDecision {
  if (!gatePause) {
    const question = tool.gate?.(args) ?? null;
    return question ? { kind: 'ask', question } : { kind: 'run', args, edited: false };
  }
  if (gatePause.status === 'pending') return { kind: 'waiting' };
  if (gatePause.status === 'expired') {
    return { kind: 'refused', content: `Not run: the approval request expired because ${expiryReason(gatePause)}.`, outcome: 'expired' };
  }
  if (gatePause.resolution !== 'approve') {
    const reason = gatePause.reason?.trim();
    return {
      kind: 'refused',
      content: `The user declined this call, so it was not run. ${reason ? `Reason: ${reason}` : 'No reason was given.'} Do not retry it as is; take another path or ask the user.`,
      outcome: 'declined',
    };
  }
  if (gatePause.editedPayload !== undefined) {
    // Checked against the tool's schema when the user decided; parsed again so the tool gets defaults applied.
    return { kind: 'run', args: tool.input.parse(gatePause.editedPayload), edited: true };
  }
  return { kind: 'run', args, edited: false };
}
