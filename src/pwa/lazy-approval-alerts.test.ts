import { describe, expect, it, vi } from 'vitest';
import type { ApprovalAlerts } from './approval-alerts.ts';
import { lazyApprovalAlerts } from './lazy-approval-alerts.ts';

function realAlerts() {
  const stop = vi.fn();
  return {
    stop,
    alerts: {
      approvalRequested: vi.fn(() => true),
      remind: vi.fn(() => true),
      dismiss: vi.fn(),
      followServiceWorker: vi.fn(() => stop),
      ensurePermission: vi.fn(async () => 'granted' as const),
      setBadge: vi.fn(async () => {}),
    } satisfies ApprovalAlerts,
  };
}

describe('lazyApprovalAlerts', () => {
  it('loads once, on first use, and passes every call on in order', async () => {
    const { alerts } = realAlerts();
    const load = vi.fn(async () => alerts);
    const lazy = lazyApprovalAlerts(load);
    expect(load).not.toHaveBeenCalled();
    lazy.approvalRequested({ pausePointId: 'p1', conversationId: 'c1', title: 'T' });
    lazy.dismiss('p1');
    expect(await lazy.ensurePermission()).toBe('granted');
    await lazy.setBadge(2);
    expect(load).toHaveBeenCalledOnce();
    expect(alerts.approvalRequested).toHaveBeenCalledWith({ pausePointId: 'p1', conversationId: 'c1', title: 'T' });
    expect(alerts.dismiss).toHaveBeenCalledWith('p1');
    expect(alerts.approvalRequested.mock.invocationCallOrder[0]).toBeLessThan(alerts.dismiss.mock.invocationCallOrder[0]!);
    expect(alerts.setBadge).toHaveBeenCalledWith(2);
  });

  it('a subscription stopped before the module loaded never starts; one stopped after, stops', async () => {
    const { alerts, stop } = realAlerts();
    const lazy = lazyApprovalAlerts(async () => alerts);
    lazy.followServiceWorker()();
    await lazy.setBadge(0);
    expect(alerts.followServiceWorker).not.toHaveBeenCalled();
    const unsubscribe = lazy.followServiceWorker();
    await lazy.setBadge(0);
    expect(alerts.followServiceWorker).toHaveBeenCalledOnce();
    unsubscribe();
    expect(stop).toHaveBeenCalledOnce();
  });
});
