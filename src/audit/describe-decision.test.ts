import { describe, expect, it } from 'vitest';
import { describeDecision, type DecisionFacts } from './describe-decision.ts';

const base: DecisionFacts = { status: 'resolved', kind: 'approval', resolution: 'approve', options: null, editedPayload: undefined, expiredReason: undefined };

describe('describeDecision', () => {
  it('says what was decided, in words', () => {
    expect(describeDecision(base)).toBe('Approved');
    expect(describeDecision({ ...base, editedPayload: { a: 1 } })).toBe('Approved with edits');
    expect(describeDecision({ ...base, resolution: 'decline' })).toBe('Declined');
    expect(describeDecision({ ...base, kind: 'choice', options: ['Train', 'decline'], resolution: 'decline' })).toBe('Chose “decline”');
    expect(describeDecision({ ...base, kind: 'choice', options: ['Train'], resolution: 'decline' })).toBe('Declined');
    expect(describeDecision({ ...base, kind: 'data_entry', resolution: { name: 'Ada' } })).toBe('Submitted the form');
    expect(describeDecision({ ...base, status: 'pending', resolution: null })).toBe('Awaiting decision');
    expect(describeDecision({ ...base, status: 'expired', resolution: null, expiredReason: 'timeout' })).toBe('Expired (timed out)');
    expect(describeDecision({ ...base, status: 'expired', resolution: null, expiredReason: 'abandoned' })).toBe('Abandoned (the conversation moved on)');
  });
});
