import { describe, expect, test } from 'vitest';
import { ACTIVE_STATES, type ConversationState } from '../../engine/records/index.ts';
import { ACTIVE_STATES as PAGE_ACTIVE_STATES, describeState, isActive, runsInTab } from './conversation-status.ts';

describe('describeState', () => {
  test('running offers Stop', () => {
    expect(describeState({ kind: 'running', owner: 't', since: 0 })).toMatchObject({ text: 'Running…', action: 'stop' });
  });
  test('paused counts approvals', () => {
    expect(describeState({ kind: 'paused', pending: 1 }).text).toBe('Paused — awaiting 1 approval');
    expect(describeState({ kind: 'paused', pending: 3 }).text).toBe('Paused — awaiting 3 approvals');
  });
  test('retrying says which attempt and why', () => {
    const view = describeState({ kind: 'retrying', owner: 't', attempt: 2, retryAt: Date.now(), reason: 'rate limited' });
    expect(view.text).toMatch(/^Retrying — attempt 2 at .+ \(rate limited\)$/);
    expect(view.action).toBe('stop');
  });
  test('waiting for network', () => {
    expect(describeState({ kind: 'waiting_for_network', owner: 't', since: 0 }).text).toBe('Waiting for network…');
  });
  test('errors offer Retry; interruptions and the step limit offer Continue', () => {
    expect(describeState({ kind: 'error', code: 'auth', message: 'Key rejected', retryable: false })).toMatchObject({
      text: 'Error: Key rejected',
      action: 'retry',
    });
    expect(describeState({ kind: 'error', code: 'interrupted', message: 'The tab closed', retryable: true }).action).toBe('continue');
    expect(describeState({ kind: 'error', code: 'step_limit', message: '20 steps', retryable: true }).action).toBe('continue');
  });
});

describe('isActive and runsInTab', () => {
  const states: ConversationState[] = [
    { kind: 'idle' },
    { kind: 'running', owner: 'me', since: 0 },
    { kind: 'paused', pending: 1 },
    { kind: 'retrying', owner: 'me', attempt: 1, retryAt: 0, reason: '' },
    { kind: 'waiting_for_network', owner: 'other', since: 0 },
    { kind: 'error', code: 'network', message: 'down', retryable: true },
  ];

  test("agree with the engine's ACTIVE_STATES", () => {
    expect([...PAGE_ACTIVE_STATES].sort()).toEqual([...ACTIVE_STATES].sort());
    for (const state of states) expect(isActive(state)).toBe((ACTIVE_STATES as readonly string[]).includes(state.kind));
  });

  test('a loop runs in a tab when that tab is its owner', () => {
    expect(states.filter((s) => runsInTab(s, 'me')).map((s) => s.kind)).toEqual(['running', 'retrying']);
    expect(states.filter((s) => runsInTab(s, 'other')).map((s) => s.kind)).toEqual(['waiting_for_network']);
  });
});
