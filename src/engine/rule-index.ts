import { isGlob, literalPrefix } from './glob-match.ts';
import { withoutTrailingDot } from './match-url.ts';
import type { ApprovalRule } from './records/index.ts';

/** A rule with its place in the rule set: of two rules of one effect, the earlier decides. */
export interface IndexedRule {
  rule: ApprovalRule;
  order: number;
}

/** The rules of one exact tool name. */
export interface ToolRules {
  /**
   * Rules with a URL matcher, by that matcher's pointer and then its origin:
   * such a rule can only apply to a call whose URL at the pointer has that
   * origin, so a call reads one bucket instead of every rule of the tool (an
   * "Always allow" per site adds hundreds of http_request rules).
   */
  byUrl: Map<string, Map<string, IndexedRule[]>>;
  /**
   * The same rules by pointer alone, in rule order: for a call whose URL there
   * is unclear (match-url.ts), which may be any origin's.
   */
  byPointer: Map<string, IndexedRule[]>;
  rest: IndexedRule[];
}

/** Enabled rules, grouped so that a call only looks at the rules that can apply to it. */
export interface RuleIndex {
  byTool: Map<string, ToolRules>;
  /** Rules over a glob of tool names, with the glob's literal start: checked for every call. */
  globs: (IndexedRule & { prefix: string })[];
}

/**
 * An index per rules array, built the second time the same array is
 * evaluated: a port that hands out the same array while nothing changed (a
 * cached snapshot) is evaluated at the cost of the few rules that can apply;
 * one that hands out a fresh copy for every call gets a single pass over the
 * rules instead, which costs less than building an index it would use once.
 * `RuleSet.rules` is read-only for this reason: never change an array (or a
 * rule in it) that was handed out; hand out a new one.
 */
const indexes = new WeakMap<readonly ApprovalRule[], RuleIndex>();
const seenOnce = new WeakSet<readonly ApprovalRule[]>();

/** The index of a rules array, or undefined the first time it is seen (scan it). */
export function ruleIndex(rules: readonly ApprovalRule[]): RuleIndex | undefined {
  const index = indexes.get(rules);
  if (index) return index;
  if (!seenOnce.has(rules)) {
    seenOnce.add(rules);
    return undefined;
  }
  const built = buildIndex(rules);
  indexes.set(rules, built);
  return built;
}

function buildIndex(rules: readonly ApprovalRule[]): RuleIndex {
  const byTool = new Map<string, ToolRules>();
  const globs: RuleIndex['globs'] = [];
  for (let order = 0; order < rules.length; order++) {
    const rule = rules[order]!;
    if (!rule.enabled) continue;
    const indexed = { rule, order };
    if (isGlob(rule.tool)) {
      globs.push({ ...indexed, prefix: literalPrefix(rule.tool) });
      continue;
    }
    let forTool = byTool.get(rule.tool);
    if (!forTool) {
      forTool = { byUrl: new Map(), byPointer: new Map(), rest: [] };
      byTool.set(rule.tool, forTool);
    }
    const url = firstUrlMatcher(rule);
    if (!url) {
      forTool.rest.push(indexed);
      continue;
    }
    const inOrder = forTool.byPointer.get(url.pointer);
    if (inOrder) inOrder.push(indexed);
    else forTool.byPointer.set(url.pointer, [indexed]);
    let byOrigin = forTool.byUrl.get(url.pointer);
    if (!byOrigin) {
      byOrigin = new Map();
      forTool.byUrl.set(url.pointer, byOrigin);
    }
    // Keyed as calls' origins are read: one trailing dot of the host dropped (match-url.ts).
    const origin = withoutTrailingDot(url.origin);
    const bucket = byOrigin.get(origin);
    if (bucket) bucket.push(indexed);
    else byOrigin.set(origin, [indexed]);
  }
  return { byTool, globs };
}

/** The rule's first URL matcher: a call can only match the rule if its URL there has this origin. */
export function firstUrlMatcher(rule: ApprovalRule): Extract<ApprovalRule['match'][number], { kind: 'url' }> | undefined {
  for (const matcher of rule.match) if (matcher.kind === 'url') return matcher;
  return undefined;
}
