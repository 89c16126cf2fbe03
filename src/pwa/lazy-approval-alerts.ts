import type { ApprovalAlerts } from './approval-alerts.ts';

/**
 * Approval alerts whose module loads after start-up: nothing in the first
 * paint needs them, and the page's start-up JavaScript has a budget. Each call
 * waits on the one load (so none is lost or reordered); the boolean results
 * say only that the call was passed on.
 */
export function lazyApprovalAlerts(load: () => Promise<ApprovalAlerts>): ApprovalAlerts {
  let loading: Promise<ApprovalAlerts> | undefined;
  const ready = () => (loading ??= load());
  const report = (what: string) => (error: unknown) => console.warn(`Pausepoint: approval alerts (${what}) failed`, error);
  return {
    approvalRequested(request) {
      void ready().then((alerts) => alerts.approvalRequested(request), report('notify'));
      return true;
    },
    remind(request) {
      void ready().then((alerts) => alerts.remind(request), report('remind'));
      return true;
    },
    dismiss(pausePointId) {
      void ready().then((alerts) => alerts.dismiss(pausePointId), report('dismiss'));
    },
    followServiceWorker() {
      let stop: (() => void) | undefined;
      let stopped = false;
      void ready().then((alerts) => {
        if (!stopped) stop = alerts.followServiceWorker();
      }, report('follow the service worker'));
      return () => {
        stopped = true;
        stop?.();
      };
    },
    ensurePermission: () => ready().then((alerts) => alerts.ensurePermission()),
    setBadge: (count) => ready().then((alerts) => alerts.setBadge(count)),
  };
}
