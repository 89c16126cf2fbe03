import { UNCLEAR, TOOL_CHANGED } from './card-warnings.ts';
export { UNCLEAR, TOOL_CHANGED };
import { describeRule } from './describe-rule.ts';
import type { EngineContext } from './engine-context.ts';
import { evaluateRules } from './evaluate-rules.ts';
import { irreversibleFlag } from './irreversible-flag.ts';
import { pausePointFor } from './pause-for-call.ts';
import { cardViewHash, outcomeSigned, signDecision } from './signed-decision.ts';
import type { PauseRequest, ToolDefinition } from './tool-definition.ts';
import type { ApprovalRule, AssistantMessage, PausePoint, PauseRule, ToolCall } from './records/index.ts';
import { WAIT_FOR_APPROVAL } from './wait-for-approval.ts';

/** What the approval rules make of a fresh call. */
export type RuleStep =
  /**
   * No rule decided: the tool's own gate, as without rules. `dryRuns`: the
   * dry-run rules that would have decided it (recorded already), for its card.
   */
  | { kind: 'gate'; dryRuns?: PauseRule[] }
  /** An allow rule let it through; the decision is stored. */
  | { kind: 'run' }
  /** A deny rule refused it; the decision is stored. `content` is the model's result. */
  | { kind: 'refuse'; content: string }
  /** A card to show: an ask rule's, or the gate's of a tool that changed since a rule allowed it. */
  | { kind: 'ask'; question: PausePoint };

/**
 * Applies the user's approval rules to a call that has neither run nor been
 * asked about, before the tool's own gate (deny > ask > allow > gate). Every
 * automatic decision is stored as a pause point of origin `rule`, already
 * resolved, before anything follows from it: the audit log holds it as it
 * holds a human decision, and a run that dies right after finds it and goes
 * on from it (a refusal is refused again; an approval is honoured only while
 * the same rule still allows the call, so a rule removed meanwhile asks).
 *
 * `wait_for_approval` is never decided by a rule: the model asked a person.
 */
export async function decideByRules(
  ctx: EngineContext,
  message: AssistantMessage,
  call: ToolCall,
  tool: ToolDefinition,
  args: unknown,
  /** The call's stored pause points (those whose decisions stand in this browser). */
  pauses: readonly PausePoint[],
): Promise<RuleStep> {
  const { conversationId } = message;
  const newPause = (request: PauseRequest, origin: PausePoint['origin']) => pausePointFor(ctx, message, call, request, origin);
  if (call.name === WAIT_FOR_APPROVAL || pauses.some((p) => p.origin === 'gate')) return { kind: 'gate' };
  const previous = pauses.findLast((p) => p.origin === 'rule');
  if (previous?.resolution === 'decline') return { kind: 'refuse', content: refusal(previous.rule?.text ?? previous.title, previous.reason) };

  const set = await ctx.rules.load();
  if (set.rules.length === 0) return { kind: 'gate' };
  const definitionHash = (await ctx.tools.definitionHash(call.name)) ?? null;
  const now = ctx.clock.now();
  const verdict = evaluateRules(set, { toolName: call.name, args, conversationId, definitionHash, definitionChanged: tool.definitionChanged === true }, now);
  const hash = definitionHash === null ? {} : { definitionHash };
  const changed = verdict.stale.length > 0;
  // Recorded before anything follows from the verdict: a dry run's record does not depend on what the call does next.
  const dryRuns: PauseRule[] = [];
  for (const dry of verdict.dryRuns) {
    const ruleText = describeRule(dry);
    await ctx.rules.recordDryRun({
      v: 1,
      id: `dry-run:${dry.id}:${conversationId}:${call.id}`,
      at: now,
      kind: 'rule_dry_run',
      rule: dry,
      ruleText,
      effect: dry.effect,
      conversationId,
      toolCallId: call.id,
      toolName: call.name,
      args,
    });
    dryRuns.push({ id: dry.id, effect: dry.effect, text: ruleText });
  }
  const wouldHave = dryRuns.length > 0 ? { dryRuns } : {};

  switch (verdict.effect) {
    case 'deny': {
      const rule = pauseRule(verdict.rule);
      const reason = verdict.rule.reason?.trim();
      await decided(ctx, { ...(await newPause(decisionRequest(`Denied by rule: ${rule.text}`, DENIED, args), 'rule')), ...hash, ...wouldHave }, 'decline', rule, now, reason);
      await ctx.rules.markUsed(rule.id, now);
      return { kind: 'refuse', content: refusal(rule.text, reason) };
    }
    case 'allow': {
      const rule = pauseRule(verdict.rule);
      // Stored by a run that died before the call started: the same rule still allows it.
      if (previous?.resolution === 'approve' && previous.rule?.id === rule.id) return { kind: 'run' };
      await decided(ctx, { ...(await newPause(decisionRequest(`Allowed by rule: ${rule.text}`, ALLOWED, args), 'rule')), ...hash, ...wouldHave }, 'approve', rule, now);
      await ctx.rules.markUsed(rule.id, now);
      return { kind: 'run' };
    }
    case 'ask': {
      const rule = pauseRule(verdict.rule);
      const own = tool.gate?.(args);
      const asked = own ?? { title: `Run ${call.name}?`, description: ASKED };
      const question = verdict.unclear ? { ...asked, description: `${UNCLEAR}\n\n${asked.description}` } : asked;
      await ctx.rules.markUsed(rule.id, now);
      return { kind: 'ask', question: { ...(await newPause(gateRequest(question, args, changed), 'gate')), rule, ...hash, ...wouldHave, ...irreversibleFlag(tool, args) } };
    }
    case 'none': {
      const own = changed ? tool.gate?.(args) : null;
      if (!own) return { kind: 'gate', ...wouldHave };
      return { kind: 'ask', question: { ...(await newPause(gateRequest(own, args, true), 'gate')), ...hash, ...wouldHave, ...irreversibleFlag(tool, args) } };
    }
  }
}

/** What the model reads when a deny rule refused its call. */
export function refusal(ruleText: string, reason: string | undefined): string {
  const why = reason ? `Reason: ${reason}` : 'No reason was given.';
  return `Not run: the user's approval rule refuses this call (${ruleText}). ${why} Do not try it again; take another path or ask the user.`;
}

const ALLOWED = 'An approval rule allowed this call without asking.';
const DENIED = 'An approval rule refused this call, so it was not run.';
const ASKED = 'One of your approval rules asks before calls like this one. The arguments are below; you can edit them before approving.';

function pauseRule(rule: ApprovalRule): PauseRule {
  return { id: rule.id, effect: rule.effect, text: describeRule(rule) };
}

function decisionRequest(title: string, description: string, args: unknown): PauseRequest {
  return { title, description, options: null, payload: args, kind: 'approval' };
}

function gateRequest(question: { title: string; description: string }, args: unknown, changed: boolean): PauseRequest {
  const description = changed ? `${TOOL_CHANGED}\n\n${question.description}` : question.description;
  return { title: question.title, description, options: null, payload: args, kind: 'approval' };
}

/** Stores a rule's decision as a resolved pause point: an automatic decision is on record before it has any effect. */
async function decided(
  ctx: EngineContext,
  pause: PausePoint,
  resolution: 'approve' | 'decline',
  rule: PauseRule,
  at: number,
  reason?: string,
): Promise<void> {
  const settled: PausePoint = {
    ...pause,
    status: 'resolved',
    resolution,
    resolvedAt: at,
    expiresAt: null,
    rule,
    ...(reason ? { reason } : {}),
  };
  // Signed by this device, the one whose rule decided, before it is stored: the record is the decision.
  const signature = await signDecision(ctx, outcomeSigned(settled, cardViewHash(ctx, pause)));
  await ctx.storage.createPausePoint(signature ? { ...settled, deviceSignature: signature } : settled);
}
