import { describe, expect, test } from 'vitest';
import type { PausePoint } from '../../engine/records/index.ts';
import { previewDecision } from '../preview-decision.ts';
import { cardOutcome, deciderText } from './card-outcome.ts';
import { parsePayload, payloadDiff } from './payload-diff.ts';

const pause = (over: Partial<PausePoint> = {}): PausePoint => ({
  v: 1,
  id: 'p1',
  conversationId: 'c',
  turnIndex: 0,
  title: 'Send the newsletter',
  description: 'To 1,204 subscribers',
  options: null,
  payload: { to: 'all', count: 1204 },
  kind: 'approval',
  status: 'pending',
  resolution: null,
  resolvedAt: null,
  createdAt: 0,
  origin: 'model',
  toolCallId: 'call1',
  toolName: 'wait_for_approval',
  expiresAt: null,
  ...over,
});

describe('payloadDiff', () => {
  test('lists changed, added and removed keys by path', () => {
    const diff = payloadDiff({ to: 'all', count: 3, nested: { a: 1 } }, { to: 'staff', nested: { a: 1, b: [1] } });
    expect(diff).toEqual([
      { path: 'to', change: 'changed', before: '"all"', after: '"staff"' },
      { path: 'count', change: 'removed', before: '3' },
      { path: 'nested.b[0]', change: 'added', after: '1' },
    ]);
  });
  test('is empty for equal payloads', () => {
    expect(payloadDiff({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toEqual([]);
  });
  test('parsePayload takes only JSON objects', () => {
    expect(parsePayload('{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(parsePayload('{"a":')).toMatchObject({ ok: false });
    expect(parsePayload('[1]')).toMatchObject({ ok: false, error: expect.stringMatching(/object/) });
  });
});

describe('cardOutcome', () => {
  test('reads each resolution', () => {
    expect(cardOutcome(pause({ status: 'resolved', resolution: 'approve' })).label).toBe('Approved');
    expect(cardOutcome(pause({ status: 'resolved', resolution: 'decline', reason: 'too many' }))).toMatchObject({
      label: 'Declined',
      detail: 'too many',
    });
    expect(cardOutcome(pause({ kind: 'choice', options: ['Tue', 'Wed'], status: 'resolved', resolution: 'Wed' })).label).toBe('Chose “Wed”');
    expect(cardOutcome(pause({ kind: 'data_entry', status: 'resolved', resolution: { a: 1 } })).label).toBe('Submitted');
    expect(cardOutcome(pause({ status: 'expired', expiredReason: 'abandoned' }))).toMatchObject({ label: 'Expired' });
  });
  test('names the decider', () => {
    const decided = pause({ decidedBy: { tabId: 't1', deviceId: 'd', label: 'Firefox on Linux' } });
    expect(deciderText(decided, 't1')).toBe('this tab');
    expect(deciderText(decided, 't2')).toBe('Firefox on Linux');
  });
});

describe('previewDecision', () => {
  test('formats what the model will receive', () => {
    expect(previewDecision(pause(), { type: 'decline', reason: 'not today' })).toBe('Approval approval: decline - not today');
    expect(previewDecision(pause(), { type: 'approve', editedPayload: { to: 'staff', count: 12 } })).toContain('edited');
    expect(previewDecision(pause(), { type: 'approve', editedPayload: { to: 'all', count: 1204 } })).not.toContain('edited');
    expect(previewDecision(pause({ kind: 'choice', options: ['A', 'B'] }), { type: 'choose', option: 'B' })).toMatch(/^Approval choice: B/);
  });
});
