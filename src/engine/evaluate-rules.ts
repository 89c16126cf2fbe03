import { CallArguments, matchesAll } from './argument-matchers.ts';
import { isGlob, literalPrefix, matchGlob } from './glob-match.ts';
import type { RuleSet } from './rules-port.ts';
import type { ApprovalRule, RuleEffect } from './records/index.ts';
import { ruleIndex, type IndexedRule } from './rule-index.ts';

/** What the rules are asked about: one tool call, as it would run. */
export interface RuleCall {
  toolName: string;
  /** The arguments the tool would run with (parsed by its schema). */
  args: unknown;
  conversationId: string;
  /** The tool's definition hash now (definition-hash.ts). */
  definitionHash: string | null;
}

export type RuleVerdict = (
  | { effect: RuleEffect; rule: ApprovalRule; stale: readonly ApprovalRule[] }
  | {
      effect: 'none';
      /**
       * Allow rules that would have let the call through but were made for
       * another definition of the tool: its card says the tool changed since.
       */
      stale: readonly ApprovalRule[];
    }
) & {
  /**
   * Dry-run rules that would have decided the call had each been made active
   * (alone): it applies, and would win over the active rules' verdict. They
   * decided nothing; the engine records them.
   */
  dryRuns: readonly ApprovalRule[];
};

/**
 * The rules' verdict on one call: deny beats ask beats allow; `none` leaves
 * the call to the tool's own gate. Of two rules with the same effect, the
 * earlier in the set is the one named. Pure, and asked afresh for every call.
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
 *
 * A dry-run rule is absent for the verdict; it is checked as if it were
 * active and listed in `dryRuns` when it would have decided the call.
 */
export function evaluateRules(set: RuleSet, call: RuleCall, now: number): RuleVerdict {
  const { rules } = set;
  if (rules.length === 0) return { effect: 'none', stale: [], dryRuns: [] };
  const found = new Verdicts(set.askForEverything, call, now);
  const index = ruleIndex(rules);
  if (!index) {
    for (let order = 0; order < rules.length; order++) {
      const rule = rules[order]!;
      if (rule.enabled && namesTool(rule.tool, call.toolName) && found.mayHaveOrigin(rule)) found.consider({ rule, order });
    }
    return found.verdict();
  }
  const forTool = index.byTool.get(call.toolName);
  if (forTool) {
    for (const indexed of forTool.rest) found.consider(indexed);
    for (const [pointer, byOrigin] of forTool.byUrl) {
      const origin = found.args.urlAt(pointer)?.origin;
      const bucket = origin === undefined ? undefined : byOrigin.get(origin);
      if (bucket) for (const indexed of bucket) found.consider(indexed);
    }
  }
  for (const glob of index.globs) {
    if (call.toolName.startsWith(glob.prefix) && matchGlob(glob.rule.tool, call.toolName)) found.consider(glob);
  }
  return found.verdict();
}

const STAR = 42;
const QUESTION = 63;

/** Whether a rule's tool (a name or a glob) names the call's tool. */
function namesTool(tool: string, name: string): boolean {
  if (tool === name) return true;
  // A name or glob that starts with another literal character cannot match: most rules end here, at once.
  const first = tool.charCodeAt(0);
  if (first !== name.charCodeAt(0) && first !== STAR && first !== QUESTION) return false;
  return isGlob(tool) && name.startsWith(literalPrefix(tool)) && matchGlob(tool, name);
}

/** The rules found to apply so far, the earliest of each effect. */
class Verdicts {
  readonly args: CallArguments;
  #deny: IndexedRule | undefined;
  #ask: IndexedRule | undefined;
  #allow: IndexedRule | undefined;
  #stale: IndexedRule[] | undefined;
  #dryRuns: IndexedRule[] | undefined;

  constructor(
    readonly askForEverything: boolean,
    readonly call: RuleCall,
    readonly now: number,
  ) {
    this.args = new CallArguments(call.args);
  }

  /**
   * A cheap first look at a rule with a URL matcher: the call's URL there must
   * have the matcher's origin (what the index's buckets do for many rules at once).
   */
  mayHaveOrigin(rule: ApprovalRule): boolean {
    // The loop of firstUrlMatcher, written out: this runs for every rule of the tool when there is no index.
    for (const matcher of rule.match) if (matcher.kind === 'url') return this.args.urlAt(matcher.pointer)?.origin === matcher.origin;
    return true;
  }

  /** An enabled rule of the call's tool: whether it applies, and wins over those found so far. */
  consider(indexed: IndexedRule): void {
    const { rule } = indexed;
    if (rule.effect === 'allow' && this.askForEverything) return;
    if (rule.dryRun) {
      if (!this.#applies(rule)) return;
      // One made for another definition of the tool would not have allowed it either.
      if (rule.effect === 'allow' && rule.definitionHash !== null && rule.definitionHash !== this.call.definitionHash) return;
      (this.#dryRuns ??= []).push(indexed);
      return;
    }
    const held = rule.effect === 'deny' ? this.#deny : rule.effect === 'ask' ? this.#ask : this.#allow;
    // Of two rules of one effect the earlier decides: a later one need not be checked.
    if (held !== undefined && held.order < indexed.order) return;
    if (!this.#applies(rule)) return;
    switch (rule.effect) {
      case 'deny':
        this.#deny = indexed;
        break;
      case 'ask':
        this.#ask = indexed;
        break;
      case 'allow':
        if (rule.definitionHash !== null && rule.definitionHash !== this.call.definitionHash) (this.#stale ??= []).push(indexed);
        else this.#allow = indexed;
        break;
    }
  }

  #applies(rule: ApprovalRule): boolean {
    if (rule.expiresAt !== null && rule.expiresAt <= this.now) return false;
    if (rule.scope.kind === 'conversation' && rule.scope.conversationId !== this.call.conversationId) return false;
    return rule.match.length === 0 || matchesAll(rule.match, this.args);
  }

  verdict(): RuleVerdict {
    const stale = this.#stale ? this.#stale.sort((a, b) => a.order - b.order).map((s) => s.rule) : [];
    const winner = this.#deny ?? this.#ask ?? this.#allow;
    const dryRuns = this.#dryRuns ? this.#dryRuns.filter((dry) => wouldWin(dry, winner)).sort((a, b) => a.order - b.order).map((d) => d.rule) : [];
    return winner ? { effect: winner.rule.effect, rule: winner.rule, stale, dryRuns } : { effect: 'none', stale, dryRuns };
  }
}

const RANK: Record<RuleEffect, number> = { deny: 3, ask: 2, allow: 1 };

/** Whether a dry-run rule, made active, would decide instead of the active rules' winner. */
function wouldWin(dry: IndexedRule, winner: IndexedRule | undefined): boolean {
  if (!winner) return true;
  const ours = RANK[dry.rule.effect];
  const theirs = RANK[winner.rule.effect];
  return ours > theirs || (ours === theirs && dry.order < winner.order);
}
