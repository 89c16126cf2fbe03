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
    remind: vi.fn(() => true),
    ensurePermission: vi.fn(async () => 'granted' as const),
    setBadge: vi.fn(async () => {}),
  } satisfies ApprovalAlerts;
  const client = fakeClient();
  const state = $state<{ pending: readonly PausePoint[] | undefined; badge: boolean; reminder: number | null }>({ pending: undefined, badge: true, reminder: null });
  const timers = { now: () => Date.now(), setTimeout: (run: () => void, ms: number) => setTimeout(run, ms), clearTimeout: (h: unknown) => clearTimeout(h as number) };
  const dispose = $effect.root(() => {
    followApprovals(alerts, { client, pending: () => state.pending, badgeOn: () => state.badge, reminderMinutes: () => state.reminder, reminderTimers: timers });
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

  test('a card still pending after the reminder delay is reminded once; off or decided, it is not', async () => {
    vi.useFakeTimers({ now: 10_000_000 });
    try {
      const { alerts, state, dispose } = setUp();
      state.reminder = 5;
      state.pending = [pausePoint({ id: 'p1', conversationId: 'c1', title: 'Send it?', createdAt: Date.now() }), pausePoint({ id: 'p2', createdAt: Date.now() })];
      flushSync();
      await vi.dynamicImportSettled();
      vi.advanceTimersByTime(4 * 60_000);
      state.pending = [state.pending[0]!];
      flushSync();
      await vi.dynamicImportSettled();
      expect(alerts.remind).not.toHaveBeenCalled();
      vi.advanceTimersByTime(60_000);
      expect(alerts.remind).toHaveBeenCalledExactlyOnceWith({ pausePointId: 'p1', conversationId: 'c1', title: 'Send it?' });
      vi.advanceTimersByTime(60 * 60_000);
      expect(alerts.remind).toHaveBeenCalledOnce();

      state.reminder = null;
      state.pending = [pausePoint({ id: 'p3', createdAt: Date.now() })];
      flushSync();
      await vi.dynamicImportSettled();
      vi.advanceTimersByTime(2 * 60 * 60_000);
      expect(alerts.remind).toHaveBeenCalledOnce();
      dispose();
    } finally {
      vi.useRealTimers();
    }
  });
});
