import { describe, expect, test } from 'vitest';
import type { PausePoint, ToolMessage } from '../../engine/records/index.ts';
import { answerHeld, latestToolResults, pausesByToolCall, toolCallState } from './tool-call-state.ts';

const tool = (outcome: ToolMessage['outcome'], seq = 1): ToolMessage => ({
  v: 1,
  id: `t${seq}`,
  conversationId: 'c',
  seq,
  createdAt: 0,
  role: 'tool',
  toolCallId: 'call1',
  toolName: 'send_email',
  content: 'ok',
  outcome,
});
const pause = (over: Partial<PausePoint>): PausePoint => ({
  v: 1,
  id: 'p1',
  conversationId: 'c',
  turnIndex: 0,
  title: 'T',
  description: 'D',
  options: null,
  payload: null,
  kind: 'approval',
  status: 'pending',
  resolution: null,
  resolvedAt: null,
  createdAt: 0,
  origin: 'gate',
  toolCallId: 'call1',
  toolName: 'send_email',
  expiresAt: null,
  ...over,
});

describe('toolCallState', () => {
  test('a pending pause point means awaiting approval', () => {
    expect(toolCallState(tool('awaiting_approval'), [pause({})], false)).toBe('awaiting_approval');
  });
  test('maps stored outcomes', () => {
    expect(toolCallState(tool('done'), [], false)).toBe('done');
    expect(toolCallState(tool('invalid'), [], false)).toBe('failed');
    expect(toolCallState(tool('failed'), [], false)).toBe('failed');
    expect(toolCallState(tool('declined'), [], false)).toBe('declined');
    expect(toolCallState(tool('unknown'), [], false)).toBe('unknown');
  });
  test('no result yet: running while the loop runs, otherwise not run', () => {
    expect(toolCallState(undefined, [], true)).toBe('running');
    expect(toolCallState(undefined, [], false)).toBe('not_run');
  });
  test('a decided wait_for_approval is done or declined; an approved gate still has to run', () => {
    const awaiting = tool('awaiting_approval');
    expect(toolCallState(awaiting, [pause({ origin: 'model', status: 'resolved', resolution: 'approve' })], false)).toBe('done');
    expect(toolCallState(awaiting, [pause({ status: 'resolved', resolution: 'decline' })], false)).toBe('declined');
    expect(toolCallState(awaiting, [pause({ status: 'resolved', resolution: 'approve' })], true)).toBe('running');
    expect(toolCallState(awaiting, [pause({ status: 'expired' })], false)).toBe('expired');
  });
  test('a call an approval rule decided reads like one a person decided', () => {
    const allowed = pause({ origin: 'rule', status: 'resolved', resolution: 'approve' });
    expect(toolCallState(undefined, [allowed], true)).toBe('running');
    expect(toolCallState(tool('done'), [allowed], false)).toBe('done');
    expect(toolCallState(tool('declined'), [pause({ origin: 'rule', status: 'resolved', resolution: 'decline' })], false)).toBe('declined');
  });
  test('indexes the latest result and the pauses per call', () => {
    const results = latestToolResults([tool('awaiting_approval', 3), tool('done', 5)]);
    expect(results.get('call1')?.outcome).toBe('done');
    expect(pausesByToolCall([pause({}), pause({ id: 'p2' })]).get('call1')).toHaveLength(2);
  });
});

describe('held calls', () => {
  const card = (status: PausePoint['status']) => pause({ origin: 'model', toolCallId: 'ask', status });

  test('a pending card of the model holds the answer; a gate card or a decided card does not', () => {
    expect(answerHeld(new Map([['ask', [card('pending')]]]), ['ask', 'call1'])).toBe(true);
    expect(answerHeld(new Map([['ask', [card('resolved')]]]), ['ask', 'call1'])).toBe(false);
    expect(answerHeld(new Map([['call1', [pause({})]]]), ['ask', 'call1'])).toBe(false);
    expect(answerHeld(new Map([['ask', [card('pending')]]]), ['call1'])).toBe(false);
  });

  test('a held call with nothing stored reads as waiting, not as not run', () => {
    expect(toolCallState(undefined, [], false, true)).toBe('held');
    expect(toolCallState(undefined, [], false, false)).toBe('not_run');
    // Its own pending card still comes first.
    expect(toolCallState(tool('awaiting_approval'), [pause({})], false, true)).toBe('awaiting_approval');
    // Once answered it shows its outcome, held or not.
    expect(toolCallState(tool('declined'), [], false, true)).toBe('declined');
  });
});
