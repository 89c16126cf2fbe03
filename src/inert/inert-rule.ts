import { ruleEventId, type ApprovalRule, type RuleStateEvent } from '../engine/records/index.ts';
import { clampRule, clampTime } from './clamp-times.ts';

/**
 * An approval rule from a file (a backup), as it is written here: marked as
 * from a backup, an allow rule switched off (a stolen or crafted file must not
 * grant anything), ask and deny rules on (they only restrict), its times clamped.
 */
export function inertRule(rule: ApprovalRule, at: number): ApprovalRule {
  return { ...clampRule(rule, at), source: 'backup', enabled: rule.effect !== 'allow' };
}

/**
 * A rule event from one of the person's devices, or undefined when its ids
 * do not say what it is (its id is not `<device>:<seq>`, or it makes another
 * rule than it names). Its times are clamped to its arrival. It grants no
 * more than a restore could: a rule that says it came from a backup comes as
 * a restore writes one (an allow rule off, `inertRule`), whatever the event
 * says, so only an enable the person pressed switches it on; an event is
 * immutable and a rule is the fold of its events, so no event can change a
 * rule's definition after its making, bring a removed rule back, or undo a
 * disable it does not name (fold-rule-events.ts).
 */
export function inertRuleEvent(event: RuleStateEvent, at: number): RuleStateEvent | undefined {
  if (event.id !== ruleEventId(event.device, event.seq)) return undefined;
  const clamped = { ...event, at: clampTime(event.at, at) };
  const { change } = event;
  if (change.kind !== 'created') return clamped;
  if (change.rule.id !== event.ruleId) return undefined;
  const rule = { ...change.rule, createdAt: clampTime(change.rule.createdAt, at) };
  return { ...clamped, change: { kind: 'created', rule: rule.source === 'backup' ? { ...rule, enabled: rule.effect !== 'allow' } : rule } };
}
