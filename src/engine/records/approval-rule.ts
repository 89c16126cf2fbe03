import { z } from 'zod';

/**
 * A condition on one argument of a call, addressed by a JSON pointer
 * (RFC 6901, e.g. `/url` or `/recipients/0`). A pointer that resolves to
 * nothing never matches: a rule cannot be satisfied by leaving an argument out.
 */
export const ArgumentMatcher = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('equals'), pointer: z.string(), value: z.unknown() }),
  z.object({ kind: z.literal('one_of'), pointer: z.string(), values: z.array(z.unknown()).min(1) }),
  /** `*` matches any run of characters, `?` one character; nothing else is special. */
  z.object({ kind: z.literal('glob'), pointer: z.string(), pattern: z.string() }),
  z.object({ kind: z.literal('at_most'), pointer: z.string(), value: z.number() }),
  z.object({ kind: z.literal('at_least'), pointer: z.string(), value: z.number() }),
  /**
   * A URL argument: its origin must equal `origin` exactly (scheme, host and
   * port), and its path must start with `pathPrefix` when one is given.
   */
  z.object({ kind: z.literal('url'), pointer: z.string(), origin: z.string(), pathPrefix: z.string().optional() }),
]);
export type ArgumentMatcher = z.infer<typeof ArgumentMatcher>;

export const RuleScope = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('everywhere') }),
  z.object({ kind: z.literal('conversation'), conversationId: z.string() }),
]);
export type RuleScope = z.infer<typeof RuleScope>;

export const RuleEffect = z.enum(['allow', 'ask', 'deny']);
export type RuleEffect = z.infer<typeof RuleEffect>;

/**
 * What the user decided once for many calls: allow them, always ask, or
 * refuse them. Evaluated by the engine per call, before the tool's own gate;
 * deny beats ask beats allow beats the gate.
 */
export const ApprovalRule = z.object({
  v: z.literal(1),
  id: z.string(),
  effect: RuleEffect,
  /** A tool name, or a glob over names (`*`, `?`). */
  tool: z.string().min(1),
  /** Every matcher must hold for the rule to apply; none means every call of the tool. */
  match: z.array(ArgumentMatcher).default([]),
  scope: RuleScope,
  /** Where the rule came from. */
  source: z.enum(['card', 'settings', 'backup']),
  createdAt: z.number(),
  lastUsedAt: z.number().nullable(),
  expiresAt: z.number().nullable(),
  /** Told to the model when a deny rule refuses a call. */
  reason: z.string().optional(),
  /**
   * The hash of the tool's definition (name, description, input schema) when
   * the rule was made, or null for a rule over a glob of names. A rule whose
   * tool no longer has this definition does not apply.
   */
  definitionHash: z.string().nullable(),
  /** Restored allow rules come back disabled: a backup must not grant anything by itself. */
  enabled: z.boolean(),
  /**
   * A dry-run rule decides nothing: the engine treats it as absent, and
   * records each call it would have decided (a `rule_dry_run` audit event)
   * until `Make active` turns it on. Absent on rules made before dry runs: false.
   */
  dryRun: z.boolean().optional(),
  /** How many calls it decided (or, in a dry run, would have decided); absent until the first. */
  uses: z.number().int().nonnegative().optional(),
});
export type ApprovalRule = z.infer<typeof ApprovalRule>;

/** What the rules list says a rule is: deciding (`active`), only recording (`dry_run`), or switched off. */
export type RuleStatus = 'active' | 'dry_run' | 'off';

export function ruleStatus(rule: Pick<ApprovalRule, 'enabled' | 'dryRun'>): RuleStatus {
  if (!rule.enabled) return 'off';
  return rule.dryRun ? 'dry_run' : 'active';
}

/**
 * A rule as a card button or Settings asks for it: the engine fills in the
 * rest (`Engine.addRule`). `enabled` defaults to true, `match` to none and
 * `expiresAt` to never.
 */
export const ApprovalRuleDraft = ApprovalRule.pick({ effect: true, tool: true, match: true, scope: true, source: true, reason: true, dryRun: true }).extend({
  expiresAt: z.number().nullable().default(null),
  enabled: z.boolean().default(true),
});
export type ApprovalRuleDraft = z.input<typeof ApprovalRuleDraft>;
