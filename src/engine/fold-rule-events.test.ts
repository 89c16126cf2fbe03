import { describe, expect, it } from 'vitest';
import { foldRuleEvents } from './fold-rule-events.ts';
import { ruleEventId, type RuleStateChange, type RuleStateEvent } from './records/index.ts';
import { makeRule } from './testing/make-records.ts';

const { lastUsedAt: _lastUsedAt, uses: _uses, ...definition } = makeRule({ id: 'r1' });
const event = (device: string, seq: number, change: RuleStateChange): RuleStateEvent => ({ v: 1, id: ruleEventId(device, seq), ruleId: 'r1', device, seq, at: seq, change });
const created = (enabled = true, more: Partial<typeof definition> = {}) => event('laptop', 1, { kind: 'created', rule: { ...definition, ...more, enabled } });

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
}

/** Every order of the events folds to one state: returned, after checking that it is so. */
function foldInAnyOrder(events: readonly RuleStateEvent[]) {
  const states = permutations(events).map((order) => JSON.stringify(foldRuleEvents(order) ?? null));
  expect(new Set(states).size).toBe(1);
  return foldRuleEvents(events);
}

describe('a rule as the fold of its events', () => {
  it('is its definition once created, with the state it was made in', () => {
    expect(foldRuleEvents([created()])).toEqual({ ...definition, enabled: true });
    expect(foldRuleEvents([created(false)])).toEqual({ ...definition, enabled: false });
    expect(foldRuleEvents([])).toBeUndefined();
    // Events of a rule whose making has not arrived yet: no rule yet.
    expect(foldRuleEvents([event('phone', 1, { kind: 'disabled' })])).toBeUndefined();
  });

  it('folds any permutation of the same events to the same state', () => {
    const d1 = event('laptop', 2, { kind: 'disabled' });
    const e1 = event('phone', 1, { kind: 'enabled', undoes: [d1.id] });
    const d2 = event('laptop', 3, { kind: 'disabled' });
    const e2 = event('tablet', 1, { kind: 'enabled', undoes: [d1.id] });
    expect(foldInAnyOrder([created(), d1, e1, d2, e2])).toEqual({ ...definition, enabled: false });
    expect(foldInAnyOrder([created(), d1, e1, e2])).toEqual({ ...definition, enabled: true });
    expect(foldInAnyOrder([created(true, { dryRun: true }), d1, event('phone', 1, { kind: 'activated', undoes: [] })])).toEqual({ ...definition, enabled: false });
  });

  it('makes removal final: nothing that comes before or after brings the rule back', () => {
    const removed = event('laptop', 2, { kind: 'removed' });
    const later = [event('phone', 1, { kind: 'enabled', undoes: [] }), event('phone', 2, { kind: 'created', rule: { ...definition, enabled: true } }), event('phone', 3, { kind: 'activated', undoes: [] })];
    expect(foldInAnyOrder([created(), removed, ...later])).toBeUndefined();
    expect(foldRuleEvents([removed])).toBeUndefined();
  });

  it('lets a disable beat an enable that did not name it (pressed without having seen it)', () => {
    const disabled = event('laptop', 2, { kind: 'disabled' });
    expect(foldInAnyOrder([created(), disabled, event('phone', 1, { kind: 'enabled', undoes: [] })])).toMatchObject({ enabled: false });
    // An enable that followed it, having seen it, undoes it.
    expect(foldInAnyOrder([created(), disabled, event('phone', 1, { kind: 'enabled', undoes: [disabled.id] })])).toMatchObject({ enabled: true });
  });

  it('switches on a rule made off (a restored allow rule) by an enable, and keeps a dry run one until Make active', () => {
    expect(foldRuleEvents([created(false), event('phone', 1, { kind: 'enabled', undoes: [] })])).toMatchObject({ enabled: true });
    expect(foldRuleEvents([created(true, { dryRun: true })])).toEqual({ ...definition, enabled: true, dryRun: true });
    expect(foldRuleEvents([created(true, { dryRun: true }), event('laptop', 2, { kind: 'activated', undoes: [] })])).toEqual({ ...definition, enabled: true });
  });

  it('picks the same making on every device when a misbehaving device wrote a second one', () => {
    const other = event('phone', 1, { kind: 'created', rule: { ...definition, tool: '*', enabled: true } });
    expect(foldInAnyOrder([created(), other])).toEqual({ ...definition, enabled: true });
  });
});
