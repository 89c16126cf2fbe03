import { describe, expect, it } from 'vitest';
import { makePausePoint } from '../engine/testing/make-records.ts';
import { DecisionEntryBody } from './audit-entry.ts';
import { buildAuditEntry } from './build-audit-entry.ts';

describe('point 1: the audit entry records the view a decision was made on', () => {
  it('writes view_hash when the decision carried one, and leaves it out otherwise', () => {
    const hash = 'a'.repeat(64);
    const decided = makePausePoint({ status: 'resolved', resolution: 'approve', resolvedAt: 2_000, viewHash: hash });
    const built = buildAuditEntry(decided, undefined, undefined);
    expect(built).toMatchObject({ ok: true, body: { view_hash: hash } });
    expect(built.ok && DecisionEntryBody.safeParse(built.body).success).toBe(true);
    const older = buildAuditEntry({ ...decided, viewHash: undefined }, undefined, undefined);
    expect(older.ok && 'view_hash' in older.body).toBe(false);
    // Not a hash: refused by the entry's schema.
    expect(built.ok && DecisionEntryBody.safeParse({ ...built.body, view_hash: 'x' }).success).toBe(false);
  });
});
