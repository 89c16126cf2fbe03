import { describe, expect, it } from 'vitest';
import { ruleEventId, type RuleStateEvent } from '../engine/records/index.ts';
import { makeRule } from '../engine/testing/make-records.ts';
import { admitSynced } from './admit-synced.ts';

const { lastUsedAt: _lastUsedAt, uses: _uses, ...definition } = makeRule({ id: 'r1', createdAt: 5_000 });
const made = (more: Partial<typeof definition> = {}): RuleStateEvent => ({
  v: 1,
  id: ruleEventId('phone', 3),
  ruleId: 'r1',
  device: 'phone',
  seq: 3,
  at: 5_000,
  change: { kind: 'created', rule: { ...definition, ...more } },
});
const from = { deviceId: 'phone', at: 1_000 };
const admit = (record: RuleStateEvent) => admitSynced({ kind: 'ruleEvent', id: record.id, record }, from);

describe('a rule event from a paired device, through the inert path', () => {
  it('is taken with its times clamped to its arrival, and its deadline kept', () => {
    const admitted = admit(made({ expiresAt: 99_000 }));
    expect(admitted).toEqual({ ok: true, synced: { kind: 'ruleEvent', id: 'phone:3', record: { ...made({ expiresAt: 99_000, createdAt: 1_000 }), at: 1_000 } } });
  });

  it('is refused when its ids do not say what it is: another device or number than its id, another rule than it names', () => {
    expect(admit({ ...made(), device: 'laptop' })).toMatchObject({ ok: false });
    expect(admit({ ...made(), seq: 4 })).toMatchObject({ ok: false });
    expect(admit({ ...made(), ruleId: 'r2' })).toMatchObject({ ok: false });
    expect(admitSynced({ kind: 'ruleEvent', id: 'phone:4', record: made() }, from)).toMatchObject({ ok: false });
  });

  it('grants no more than a restore: a rule from a backup comes as a restore writes it, an allow rule off', () => {
    expect(admit(made({ source: 'backup', enabled: true }))).toMatchObject({ ok: true, synced: { record: { change: { rule: { source: 'backup', effect: 'allow', enabled: false } } } } });
    expect(admit(made({ source: 'backup', effect: 'deny', enabled: true }))).toMatchObject({ ok: true, synced: { record: { change: { rule: { effect: 'deny', enabled: true } } } } });
    // A rule the person made on the other device decides there and here alike.
    expect(admit(made({ source: 'card', enabled: true }))).toMatchObject({ ok: true, synced: { record: { change: { rule: { enabled: true } } } } });
  });
});
