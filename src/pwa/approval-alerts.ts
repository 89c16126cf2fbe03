import { readServiceWorkerMessage, type PageToServiceWorker } from './sw-message.ts';

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
  /** The service worker that controls this page, if any: notifications are shown from there. */
  serviceWorker?: ServiceWorkerBridge;
}

/** What alerts use of the service worker. */
export interface ServiceWorkerBridge {
  /** Posts to the service worker that controls this page; false when none does (first visit, blocked). */
  post(message: PageToServiceWorker): boolean;
  /** Calls `handler` with each message the service worker sends this page; returns the unsubscribe. */
  listen(handler: (data: unknown) => void): () => void;
}

type NotificationConstructor = Pick<typeof Notification, 'permission' | 'requestPermission'> & {
  new (title: string, options?: NotificationOptions): Notification;
};

export interface ApprovalAlertsOptions {
  /** The current preferences; undefined (not loaded, not set up) allows nothing. */
  getSettings: () => AlertPreferences | undefined;
  /** Shows the card: called when the user clicks a notification. */
  onOpen: (conversationId: string, pausePointId: string) => void;
  /**
   * Decides a card as its button would: a notification's Approve or Decline
   * on a card of a conversation another device runs, which only a tab's
   * worker can claim on the sync server. None: the card is only opened.
   */
  onDecide?: (pausePointId: string, action: 'approve' | 'decline', viewHash: string) => void;
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
  /**
   * A pending card's reminder (see ReminderSchedule): asks the service worker,
   * which reminds once, and only while no tab is visible. Any tab may ask.
   * Returns whether it asked.
   */
  remind(request: ApprovalRequest): boolean;
  /** Closes the notifications for a pause point that was decided or expired (this tab's, and the service worker's). */
  dismiss(pausePointId: string): void;
  /**
   * Listens for the service worker asking to show a card (a tapped notification
   * when this tab was open). Returns the unsubscribe.
   */
  followServiceWorker(): () => void;
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
    serviceWorker: 'serviceWorker' in navigator ? serviceWorkerBridge(navigator.serviceWorker) : undefined,
  };
}

function serviceWorkerBridge(container: ServiceWorkerContainer): ServiceWorkerBridge {
  return {
    post(message) {
      if (!container.controller) return false;
      container.controller.postMessage(message);
      return true;
    },
    listen(handler) {
      const listener = (event: MessageEvent<unknown>) => handler(event.data);
      container.addEventListener('message', listener);
      return () => container.removeEventListener('message', listener);
    },
  };
}

export function createApprovalAlerts({ getSettings, onOpen, onDecide, environment = browserEnvironment }: ApprovalAlertsOptions): ApprovalAlerts {
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
      // From the service worker where one controls this page: it reads the card from storage,
      // shows it only if no tab is visible, and its actions can decide it with every tab closed.
      if (env.serviceWorker?.post({ type: 'pausepoint:approval-pending', pausePointId })) {
        notified.add(pausePointId);
        return true;
      }
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

    remind({ pausePointId }) {
      // Only from the service worker: a reminder is for when nobody is looking, which it alone can tell.
      if (getSettings()?.notifications !== true || environment().Notification?.permission !== 'granted') return false;
      return environment().serviceWorker?.post({ type: 'pausepoint:approval-reminder', pausePointId }) ?? false;
    },

    dismiss(pausePointId) {
      shown.get(pausePointId)?.close();
      shown.delete(pausePointId);
      environment().serviceWorker?.post({ type: 'pausepoint:approval-settled', pausePointId });
    },

    followServiceWorker() {
      const env = environment();
      return (
        env.serviceWorker?.listen((data) => {
          const message = readServiceWorkerMessage(data);
          if (!message) return;
          env.focus();
          onOpen(message.conversationId, message.pausePointId);
          if (message.type === 'pausepoint:decide-card') onDecide?.(message.pausePointId, message.action, message.viewHash);
        }) ?? (() => {})
      );
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
