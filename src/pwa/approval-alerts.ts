/** The two switches in Settings that govern alerts. */
export interface AlertPreferences {
  notifications: boolean;
  badge: boolean;
}

export interface ApprovalRequest {
  pausePointId: string;
  conversationId: string;
  title: string;
}

/**
 * What alerts use from the page. Every member may be missing: notifications and
 * badges are absent from some browsers (and from jsdom), and alerts then do nothing.
 */
export interface AlertEnvironment {
  document: Pick<Document, 'visibilityState'>;
  navigator: Partial<Pick<Navigator, 'setAppBadge' | 'clearAppBadge' | 'userActivation'>>;
  Notification: NotificationConstructor | undefined;
  focus: () => void;
}

type NotificationConstructor = Pick<typeof Notification, 'permission' | 'requestPermission'> & {
  new (title: string, options?: NotificationOptions): Notification;
};

export interface ApprovalAlertsOptions {
  /** The current preferences; undefined (not loaded, not set up) allows nothing. */
  getSettings: () => AlertPreferences | undefined;
  /** Shows the card: called when the user clicks a notification. */
  onOpen: (conversationId: string, pausePointId: string) => void;
  /** Defaults to this window; tests pass stubs. */
  environment?: () => AlertEnvironment;
}

export type PermissionResult = NotificationPermission | 'unsupported';

export interface ApprovalAlerts {
  /**
   * A pause point is waiting. Shows a system notification when this page is
   * hidden, notifications are on in Settings and permitted by the browser; one
   * per pause point (tagged with its id, so tabs showing the same card replace
   * each other's notification rather than stacking). Returns whether it showed one.
   */
  approvalRequested(request: ApprovalRequest): boolean;
  /** Closes this tab's notification for a pause point that was decided or opened. */
  dismiss(pausePointId: string): void;
  /**
   * Asks for notification permission, but only while handling a user gesture
   * (browsers ignore or penalise prompts that come from nowhere) and only when
   * the browser has not been answered yet and notifications are on in Settings.
   * Call it from the click that led to the first card, never on load.
   */
  ensurePermission(): Promise<PermissionResult>;
  /** Shows `count` pending approvals on the app icon where supported and allowed; clears it otherwise. */
  setBadge(count: number): Promise<void>;
}

function browserEnvironment(): AlertEnvironment {
  return {
    document,
    navigator,
    Notification: typeof Notification === 'undefined' ? undefined : Notification,
    focus: () => window.focus(),
  };
}

export function createApprovalAlerts({ getSettings, onOpen, environment = browserEnvironment }: ApprovalAlertsOptions): ApprovalAlerts {
  const shown = new Map<string, Notification>();
  const notified = new Set<string>();
  let asking: Promise<PermissionResult> | undefined;

  return {
    approvalRequested({ pausePointId, conversationId, title }) {
      const env = environment();
      if (env.document.visibilityState !== 'hidden') return false;
      if (getSettings()?.notifications !== true) return false;
      if (env.Notification?.permission !== 'granted') return false;
      // The same pending card is reported again on every re-render; it alerts once.
      if (notified.has(pausePointId)) return false;
      let notification: Notification;
      try {
        notification = new env.Notification('Approval needed', { body: title, tag: pausePointId, icon: '/icon-192.png' });
      } catch (error) {
        // Android Chrome allows notifications from a service worker only; the badge still shows there.
        console.warn('Could not show a notification:', error);
        return false;
      }
      notified.add(pausePointId);
      shown.set(pausePointId, notification);
      notification.onclick = (event) => {
        event.preventDefault();
        env.focus();
        onOpen(conversationId, pausePointId);
        notification.close();
      };
      notification.onclose = () => {
        if (shown.get(pausePointId) === notification) shown.delete(pausePointId);
      };
      return true;
    },

    dismiss(pausePointId) {
      shown.get(pausePointId)?.close();
      shown.delete(pausePointId);
    },

    ensurePermission() {
      const env = environment();
      const N = env.Notification;
      if (!N) return Promise.resolve('unsupported');
      if (N.permission !== 'default' || getSettings()?.notifications !== true) return Promise.resolve(N.permission);
      // Without the User Activation API (older Safari), trust the caller to be in a gesture.
      if (env.navigator.userActivation && !env.navigator.userActivation.isActive) return Promise.resolve(N.permission);
      asking ??= requestPermission(N).finally(() => {
        asking = undefined;
      });
      return asking;
    },

    async setBadge(count) {
      const { navigator: nav } = environment();
      if (typeof nav.setAppBadge !== 'function') return;
      try {
        if (count > 0 && getSettings()?.badge === true) await nav.setAppBadge(count);
        else await nav.clearAppBadge?.();
      } catch (error) {
        // Refused when the app is not installed in some browsers: the badge is a nicety.
        console.warn('Could not update the app badge:', error);
      }
    },
  };
}

/** Older Safari answers through a callback and returns nothing; newer browsers return a promise. */
function requestPermission(N: NotificationConstructor): Promise<PermissionResult> {
  return new Promise<PermissionResult>((resolve, reject) => {
    const returned = N.requestPermission(resolve) as Promise<NotificationPermission> | undefined;
    returned?.then(resolve, reject);
  });
}
