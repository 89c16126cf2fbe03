import { describe, expect, it } from 'vitest';
import { resolveDecision, resolvedPausePoint } from './resolve-decision.ts';
import { makePausePoint } from './testing/make-records.ts';

describe('resolveDecision', () => {
  const card = makePausePoint({ payload: { to: 'all', count: 1204 } });

  it('maps each decision to its resolution and note', () => {
    expect(resolveDecision(card, { type: 'decline', reason: 'not today' })).toEqual({ resolution: 'decline', reason: 'not today' });
    expect(resolveDecision(card, { type: 'choose', option: 'B', reply: 'why not' })).toEqual({ resolution: 'B', reason: 'why not' });
    expect(resolveDecision(card, { type: 'submit', data: { seats: 3 } })).toEqual({ resolution: { seats: 3 } });
    expect(resolveDecision(card, { type: 'approve', reply: 'go' })).toEqual({ resolution: 'approve', reason: 'go' });
  });

  it('keeps edited arguments only when they differ from the card’s', () => {
    expect(resolveDecision(card, { type: 'approve', editedPayload: { to: 'staff', count: 12 } }).editedPayload).toEqual({ to: 'staff', count: 12 });
    expect(resolveDecision(card, { type: 'approve', editedPayload: { to: 'all', count: 1204 } }).editedPayload).toBeUndefined();
  });
});

describe('resolvedPausePoint', () => {
  it('resolves the card, trimming the note and leaving out an empty one', () => {
    const card = makePausePoint();
    const by = { tabId: 't', deviceId: 'd', label: 'l' };
    expect(resolvedPausePoint(card, { resolution: 'decline', reason: '  not today ' }, 5, by)).toEqual({
      ...card,
      status: 'resolved',
      resolution: 'decline',
      resolvedAt: 5,
      decidedBy: by,
      reason: 'not today',
    });
    expect(resolvedPausePoint(card, { resolution: 'approve', reason: '   ' }, 5)).not.toHaveProperty('reason');
    expect(resolvedPausePoint(card, { resolution: 'approve' }, 5)).not.toHaveProperty('decidedBy');
  });
});
