import { CallArguments, matchesAll } from './argument-matchers.ts';
import { isGlob, matchGlob } from './glob-match.ts';
import type { RuleSet } from './ports.ts';
import type { ApprovalRule, RuleEffect } from './records/index.ts';

/** What the rules are asked about: one tool call, as it would run. */
export interface RuleCall {
  toolName: string;
  /** The arguments the tool would run with (parsed by its schema). */
  args: unknown;
  conversationId: string;
  /** The tool's definition hash now (definition-hash.ts). */
  definitionHash: string | null;
}

export type RuleVerdict =
  | { effect: RuleEffect; rule: ApprovalRule; stale: readonly ApprovalRule[] }
  | {
      effect: 'none';
      /**
       * Allow rules that would have let the call through but were made for
       * another definition of the tool: its card says the tool changed since.
       */
      stale: readonly ApprovalRule[];
    };

const NONE: RuleVerdict = { effect: 'none', stale: [] };

/**
 * The rules' verdict on one call: deny beats ask beats allow; `none` leaves
 * the call to the tool's own gate. Pure, and read afresh for every call.
 *
 * A rule applies when it is enabled, not expired, in scope (everywhere, or
 * this conversation), names the tool (exactly or by glob) and all its
 * argument matchers hold. "Ask for everything" suspends every allow rule;
 * deny and ask rules still apply.
 *
 * Only allow rules are bound to the tool's definition: trust given to one
 * definition must not pass to another (an MCP server may rewrite a tool's
 * description after it was allowed). A deny or ask rule keeps applying when
 * the tool changes — refusing or asking is never the unsafe direction.
 */
export function evaluateRules(set: RuleSet, call: RuleCall, now: number): RuleVerdict {
  const { rules } = set;
  if (rules.length === 0) return NONE;
  let args: CallArguments | undefined;
  let ask: ApprovalRule | undefined;
  let allow: ApprovalRule | undefined;
  let stale: ApprovalRule[] | undefined;
  for (const rule of rules) {
    if (!rule.enabled) continue;
    if (rule.effect === 'allow' && (set.askForEverything || allow !== undefined)) continue;
    if (rule.effect === 'ask' && ask !== undefined) continue;
    if (rule.expiresAt !== null && rule.expiresAt <= now) continue;
    if (rule.scope.kind === 'conversation' && rule.scope.conversationId !== call.conversationId) continue;
    if (rule.tool !== call.toolName && !(isGlob(rule.tool) && matchGlob(rule.tool, call.toolName))) continue;
    if (rule.match.length > 0 && !matchesAll(rule.match, (args ??= new CallArguments(call.args)))) continue;
    switch (rule.effect) {
      case 'deny':
        return { effect: 'deny', rule, stale: stale ?? [] };
      case 'ask':
        ask = rule;
        break;
      case 'allow':
        if (rule.definitionHash !== null && rule.definitionHash !== call.definitionHash) (stale ??= []).push(rule);
        else allow = rule;
        break;
    }
  }
  const rule = ask ?? allow;
  return rule ? { effect: rule.effect, rule, stale: stale ?? [] } : { effect: 'none', stale: stale ?? [] };
}
