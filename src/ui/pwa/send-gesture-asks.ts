import type { PermissionResult } from '../../pwa/approval-alerts.ts';

export interface SendGestureAsksOptions {
  /** Whether notifications are on in Settings right now. */
  notificationsOn: () => boolean;
  /** Asks for notification permission; it must run inside the gesture. */
  ensurePermission: () => Promise<PermissionResult>;
  /** Asks the browser to keep this site's data. */
  requestPersistence: () => Promise<boolean>;
}

/**
 * What the page asks the browser for on a Send: notification permission and
 * persistent storage. Never on load — browsers ignore or penalise prompts that
 * come from nowhere — but on the first Send, a user gesture that also says the
 * person is about to start work that may need approvals. Each is asked once per
 * page: persistence on the first Send, permission on the first Send made while
 * notifications are on in Settings. Call the returned function synchronously
 * from the Send click or Enter keydown.
 */
export function createSendGestureAsks({ notificationsOn, ensurePermission, requestPersistence }: SendGestureAsksOptions): () => void {
  let permission: Promise<PermissionResult> | undefined;
  let persistence: Promise<boolean> | undefined;
  return () => {
    if (notificationsOn()) permission ??= ensurePermission().catch(warn('notification permission', 'default'));
    persistence ??= requestPersistence().catch(warn('persistent storage', false));
  };
}

function warn<T>(what: string, fallback: T): (error: unknown) => T {
  return (error) => {
    // Both are niceties: a refusal or a failure must never get in the way of sending.
    console.warn(`Pausepoint: asking for ${what} failed`, error);
    return fallback;
  };
}
