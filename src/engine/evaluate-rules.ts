import { CallArguments, matchesAll, type ArgumentMatch } from './argument-matchers.ts';
import { isRuleOrigin, UNCLEAR_URL } from './match-url.ts';
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
  /** The tool's definition is not the one the user last accepted (`ToolDefinition.definitionChanged`). */
  definitionChanged?: boolean;
}

export type RuleVerdict = (
  | {
      effect: RuleEffect;
      rule: ApprovalRule;
      stale: readonly ApprovalRule[];
      /**
       * Set on an `ask` that no rule asked for: `rule` would have decided the
       * call, but an argument it reads is a URL or path it cannot read the
       * way the server will (argument-matchers.ts), so the call asks.
       */
      unclear?: true;
    }
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
 * A rule that would apply but for an argument it cannot read (a URL not in
 * its canonical form, a path with dot segments under a path glob) makes the
 * call ask: it may be the very call a deny rule is for, or not the one an
 * allow rule was. Deny still beats it; an allow rule that surely applies
 * beats an unclear allow rule, never an unclear deny or ask rule.
 *
 * Only allow rules are bound to the tool's definition: trust given to one
 * definition must not pass to another (an MCP server may rewrite a tool's
 * description after it was allowed). A rule over a glob of names is bound to
 * no one definition, so it lets through only a tool whose definition is the
 * one the user accepted: never one changed since. A deny or ask rule keeps applying when
 * the tool changes — refusing or asking is never the unsafe direction.
 *
 * A dry-run rule is absent for the verdict; it is checked as if it were
 * active and listed in `dryRuns` when it would have decided the call — not
 * when it cannot read an argument: made active, it would only have made the
 * call ask, whatever its effect.
 */
export function evaluateRules(set: RuleSet, call: RuleCall, now: number): RuleVerdict {
  const { rules } = set;
  if (rules.length === 0) return { effect: 'none', stale: [], dryRuns: [] };
  const found = new Verdicts(set.askForEverything, call, now);
  const index = ruleIndex(rules);
  if (!index) {
    for (let order = 0; order < rules.length; order++) {
      const rule = rules[order]!;
      if (rule.enabled && namesTool(rule.tool, call.toolName) && found.mayHaveOrigin(rule, order)) found.consider({ rule, order });
    }
    return found.verdict();
  }
  const forTool = index.byTool.get(call.toolName);
  if (forTool) {
    for (const indexed of forTool.rest) found.consider(indexed);
    for (const [pointer, byOrigin] of forTool.byUrl) {
      const url = found.args.urlAt(pointer);
      if (url === null) continue;
      if (url !== UNCLEAR_URL) {
        const bucket = byOrigin.get(url.origin);
        if (bucket) for (const indexed of bucket) found.consider(indexed);
        continue;
      }
      // An unclear URL may be any origin's: every rule on this pointer has its say, while it still may change the verdict.
      for (const indexed of forTool.byPointer.get(pointer) ?? []) if (found.mayStillMatterUnclear(indexed)) found.consider(indexed);
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
  /** The earliest deny or ask rule, and the earliest allow rule, that would apply but for an unclear argument. */
  #unclearStrict: IndexedRule | undefined;
  #unclearAllow: IndexedRule | undefined;
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
  mayHaveOrigin(rule: ApprovalRule, order: number): boolean {
    // The loop of firstUrlMatcher, written out: this runs for every rule of the tool when there is no index.
    for (const matcher of rule.match) {
      if (matcher.kind !== 'url') continue;
      const url = this.args.urlAt(matcher.pointer);
      if (url === UNCLEAR_URL) return this.mayStillMatterUnclear({ rule, order });
      return url !== null && isRuleOrigin(url.origin, matcher.origin);
    }
    return true;
  }

  /**
   * Whether a rule that is unclear at best (the URL it reads is) could still
   * change the verdict, given what was found so far: a sure deny or ask, or an
   * earlier unclear rule of its kind, already says what it would.
   */
  mayStillMatterUnclear({ rule, order }: IndexedRule): boolean {
    if (this.#deny || this.#ask) return false;
    const held = rule.effect === 'allow' ? this.#unclearAllow : this.#unclearStrict;
    if (held !== undefined && held.order < order) return false;
    return rule.effect !== 'allow' || (!this.askForEverything && !this.#allow && !this.#unclearStrict);
  }

  /** An enabled rule of the call's tool: whether it applies, and wins over those found so far. */
  consider(indexed: IndexedRule): void {
    const { rule } = indexed;
    if (rule.effect === 'allow' && this.askForEverything) return;
    if (rule.dryRun) {
      // One that cannot read an argument would, made active, not have decided by its effect but made the call ask: not what a dry run records.
      if (this.#applies(rule) !== 'holds') return;
      // One made for another definition of the tool (or a glob over a tool changed since) would not have allowed it either.
      if (rule.effect === 'allow' && this.#madeForAnother(rule)) return;
      (this.#dryRuns ??= []).push(indexed);
      return;
    }
    const held = rule.effect === 'deny' ? this.#deny : rule.effect === 'ask' ? this.#ask : this.#allow;
    // Of two rules of one effect the earlier decides: a later one need not be checked.
    if (held !== undefined && held.order < indexed.order) return;
    const match = this.#applies(rule);
    if (match === 'fails') return;
    if (match === 'unclear') {
      this.#unclear(indexed);
      return;
    }
    switch (rule.effect) {
      case 'deny':
        this.#deny = indexed;
        break;
      case 'ask':
        this.#ask = indexed;
        break;
      case 'allow':
        if (this.#madeForAnother(rule)) (this.#stale ??= []).push(indexed);
        else this.#allow = indexed;
        break;
    }
  }

  #unclear(indexed: IndexedRule): void {
    const { rule } = indexed;
    // An allow rule made for another definition of the tool would not apply however its arguments read.
    if (rule.effect === 'allow' && rule.definitionHash !== null && rule.definitionHash !== this.call.definitionHash) return;
    const earliest = (held: IndexedRule | undefined) => (held === undefined || indexed.order < held.order ? indexed : held);
    if (rule.effect === 'allow') this.#unclearAllow = earliest(this.#unclearAllow);
    else this.#unclearStrict = earliest(this.#unclearStrict);
  }

  /** Whether an allow rule was made for another definition of the tool than the call's (a glob: for none, so not for one changed since). */
  #madeForAnother(rule: ApprovalRule): boolean {
    return rule.definitionHash === null ? this.call.definitionChanged === true : rule.definitionHash !== this.call.definitionHash;
  }

  /** Whether a rule applies to the call: in time, in scope, and its matchers hold (or cannot tell: `unclear`). */
  #applies(rule: ApprovalRule): ArgumentMatch {
    if (rule.expiresAt !== null && rule.expiresAt <= this.now) return 'fails';
    if (rule.scope.kind === 'conversation' && rule.scope.conversationId !== this.call.conversationId) return 'fails';
    return rule.match.length > 0 ? matchesAll(rule.match, this.args) : 'holds';
  }

  verdict(): RuleVerdict {
    const stale = this.#stale ? this.#stale.sort((a, b) => a.order - b.order).map((s) => s.rule) : [];
    const decider = this.#decider();
    const dryRuns = this.#dryRuns ? this.#dryRuns.filter((dry) => wouldWin(dry, decider)).sort((a, b) => a.order - b.order).map((d) => d.rule) : [];
    if (!decider) return { effect: 'none', stale, dryRuns };
    const { rule } = decider.indexed;
    return decider.unclear ? { effect: 'ask', rule, stale, unclear: true, dryRuns } : { effect: rule.effect, rule, stale, dryRuns };
  }

  /** The rule that decides the call, and whether it only asks because it cannot read an argument. */
  #decider(): Decider | undefined {
    const sure = this.#deny ?? this.#ask;
    if (sure) return { indexed: sure, unclear: false };
    const unclear = this.#unclearStrict ?? (this.#allow ? undefined : this.#unclearAllow);
    if (unclear) return { indexed: unclear, unclear: true };
    return this.#allow ? { indexed: this.#allow, unclear: false } : undefined;
  }
}

/** The rule that decides a call; `unclear` when it only makes the call ask, since it cannot read an argument. */
interface Decider {
  indexed: IndexedRule;
  unclear: boolean;
}

const RANK: Record<RuleEffect, number> = { deny: 3, ask: 2, allow: 1 };

/**
 * Whether a dry-run rule (one that surely applies), made active, would decide
 * instead of the active rules' decider. A sure deny or ask beats any unclear
 * rule; a sure allow beats only an unclear allow rule.
 */
function wouldWin(dry: IndexedRule, decider: Decider | undefined): boolean {
  if (!decider) return true;
  if (decider.unclear) return dry.rule.effect !== 'allow' || decider.indexed.rule.effect === 'allow';
  const ours = RANK[dry.rule.effect];
  const theirs = RANK[decider.indexed.rule.effect];
  return ours > theirs || (ours === theirs && dry.order < decider.indexed.order);
}
