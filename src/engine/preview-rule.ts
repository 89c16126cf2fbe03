import { z } from 'zod';
import { evaluateRules } from './evaluate-rules.ts';
import type { RuleSet } from './rules-port.ts';
import type { ApprovalRule, RuleEffect } from './records/index.ts';

/** One call as the audit's records hold it (a ledger entry, or the pause point that decided it). */
export const StoredCall = z.object({
  at: z.number(),
  conversationId: z.string(),
  toolCallId: z.string(),
  toolName: z.string(),
  args: z.unknown(),
});
export type StoredCall = z.infer<typeof StoredCall>;

/** How many of the calls it would have decided are listed with a preview. */
export const PREVIEW_EXAMPLES = 5;
/** How far back a preview looks: the most recent calls, at most this many. */
export const PREVIEW_CALLS = 10_000;

/** "This rule would have decided `decided` of your last `of` calls", and the first few of them. */
export const RulePreview = z.object({
  decided: z.number().int().nonnegative(),
  of: z.number().int().nonnegative(),
  /** Newest first, at most PREVIEW_EXAMPLES. */
  examples: z.array(StoredCall),
});
export type RulePreview = z.infer<typeof RulePreview>;

/**
 * What a rule would have done to the calls already made: each call is
 * evaluated with the rule among the user's rules as they are now, and counted
 * when the rule, made active, would have decided it (it applies and wins by
 * deny > ask > allow, as a dry run is judged: evaluate-rules.ts). The rules'
 * definition binding is left out: past calls do not all carry the hash of the
 * tool they were made to, and a preview is about what the rule matches.
 * `calls` newest first; pure, and one pass over them.
 */
export function previewRule(rule: ApprovalRule, set: RuleSet, calls: readonly StoredCall[], now: number): RulePreview {
  const candidate: ApprovalRule = { ...rule, enabled: true, dryRun: true, definitionHash: null };
  // Most calls are not the draft's at all: the draft alone says so at the cost of one rule.
  const alone: RuleSet = { rules: [candidate], askForEverything: set.askForEverything };
  // Only an active rule of an effect at least as strong can keep it from deciding (deny > ask > allow; of one effect, the earlier).
  const rivals = set.rules.filter((r) => r.enabled && !r.dryRun && RANK[r.effect] >= RANK[candidate.effect]);
  // One array for every call: the evaluator indexes it from the second call on (rule-index.ts).
  const among: RuleSet = { rules: [...rivals.map((r) => (r.definitionHash === null ? r : { ...r, definitionHash: null })), candidate], askForEverything: set.askForEverything };
  let decided = 0;
  const examples: StoredCall[] = [];
  for (const call of calls) {
    const asked = { toolName: call.toolName, args: call.args, conversationId: call.conversationId, definitionHash: null };
    if (evaluateRules(alone, asked, now).dryRuns.length === 0) continue;
    if (rivals.length > 0 && !evaluateRules(among, asked, now).dryRuns.includes(candidate)) continue;
    decided++;
    if (examples.length < PREVIEW_EXAMPLES) examples.push(call);
  }
  return { decided, of: calls.length, examples };
}

const RANK: Record<RuleEffect, number> = { deny: 3, ask: 2, allow: 1 };
