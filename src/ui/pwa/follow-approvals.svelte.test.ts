// @vitest-environment jsdom
import { flushSync } from 'svelte';
import { describe, expect, test, vi } from 'vitest';
import type { PausePoint } from '../../engine/records/index.ts';
import type { ApprovalAlerts } from '../../pwa/approval-alerts.ts';
import { fakeClient, pausePoint } from '../testing/fake-app.svelte.ts';
import { followApprovals } from './follow-approvals.svelte.ts';

function setUp() {
  const alerts = {
    approvalRequested: vi.fn(() => true),
    dismiss: vi.fn(),
    followServiceWorker: vi.fn(() => () => {}),
    ensurePermission: vi.fn(async () => 'granted' as const),
    setBadge: vi.fn(async () => {}),
  } satisfies ApprovalAlerts;
  const client = fakeClient();
  const state = $state<{ pending: readonly PausePoint[] | undefined; badge: boolean }>({ pending: undefined, badge: true });
  const dispose = $effect.root(() => {
    followApprovals(alerts, { client, pending: () => state.pending, badgeOn: () => state.badge });
  });
  flushSync();
  return { alerts, client, state, dispose };
}

describe('followApprovals', () => {
  test('passes each approval the worker reports to the alerts, and stops listening when disposed', () => {
    const { alerts, client, dispose } = setUp();
    client.emit({ type: 'ready', tabId: 'tab-1' });
    client.emit({ type: 'approval_requested', pausePointId: 'p1', conversationId: 'c1', title: 'Send it?' });
    expect(alerts.approvalRequested).toHaveBeenCalledExactlyOnceWith({ pausePointId: 'p1', conversationId: 'c1', title: 'Send it?' });
    dispose();
    client.emit({ type: 'approval_requested', pausePointId: 'p2', conversationId: 'c1', title: 'Again?' });
    expect(alerts.approvalRequested).toHaveBeenCalledOnce();
  });

  test('closes the notification of a card that is no longer pending', () => {
    const { alerts, state, dispose } = setUp();
    state.pending = [pausePoint({ id: 'p1' }), pausePoint({ id: 'p2' })];
    flushSync();
    expect(alerts.dismiss).not.toHaveBeenCalled();
    state.pending = [pausePoint({ id: 'p2' })];
    flushSync();
    expect(alerts.dismiss).toHaveBeenCalledExactlyOnceWith('p1');
    dispose();
  });

  test('shows the pending count on the badge once it is known, again when it changes, and clears it when switched off', () => {
    const { alerts, state, dispose } = setUp();
    expect(alerts.setBadge).not.toHaveBeenCalled();
    state.pending = [pausePoint({ id: 'p1' })];
    flushSync();
    expect(alerts.setBadge).toHaveBeenLastCalledWith(1);
    // Same count, new objects (a live query re-emitting): no new call.
    state.pending = [pausePoint({ id: 'p1' })];
    flushSync();
    expect(alerts.setBadge).toHaveBeenCalledTimes(1);
    state.pending = [pausePoint({ id: 'p1' }), pausePoint({ id: 'p2' })];
    flushSync();
    expect(alerts.setBadge).toHaveBeenLastCalledWith(2);
    state.badge = false;
    flushSync();
    expect(alerts.setBadge).toHaveBeenLastCalledWith(0);
    dispose();
  });
});
