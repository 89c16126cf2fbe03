// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { createApprovalAlerts, type AlertEnvironment, type AlertPreferences } from './approval-alerts.ts';

class FakeNotification {
  static permission: NotificationPermission = 'granted';
  static requestPermission = vi.fn(async (): Promise<NotificationPermission> => 'granted');
  static created: FakeNotification[] = [];
  onclick: ((event: Event) => void) | null = null;
  onclose: (() => void) | null = null;
  close = vi.fn(() => this.onclose?.());
  constructor(
    readonly title: string,
    readonly options: NotificationOptions = {},
  ) {
    FakeNotification.created.push(this);
  }
}

let visibility: DocumentVisibilityState;
let settings: AlertPreferences | undefined;
let activation: { isActive: boolean; hasBeenActive: boolean } | undefined;
let badge: { setAppBadge: Mock<(count?: number) => Promise<void>>; clearAppBadge: Mock<() => Promise<void>> } | undefined;
const focus = vi.fn();
const onOpen = vi.fn();
/** The controlling service worker: undefined for none; `posted` holds what the page sent it. */
let serviceWorker: { posted: unknown[]; controlled: boolean; handlers: ((data: unknown) => void)[] } | undefined;

function environment(): AlertEnvironment {
  return {
    document: { visibilityState: visibility },
    navigator: { ...(activation && { userActivation: activation as UserActivation }), ...badge },
    Notification: FakeNotification as unknown as AlertEnvironment['Notification'],
    focus,
    ...(serviceWorker && {
      serviceWorker: {
        post: (message) => {
          if (!serviceWorker!.controlled) return false;
          serviceWorker!.posted.push(message);
          return true;
        },
        listen: (handler) => {
          serviceWorker!.handlers.push(handler);
          return () => serviceWorker!.handlers.splice(serviceWorker!.handlers.indexOf(handler), 1);
        },
      },
    }),
  };
}

function alerts() {
  return createApprovalAlerts({ getSettings: () => settings, onOpen, environment });
}

const request = { pausePointId: 'p1', conversationId: 'c1', title: 'Send the newsletter to 412 people?' };

beforeEach(() => {
  visibility = 'hidden';
  settings = { notifications: true, badge: true };
  activation = { isActive: true, hasBeenActive: true };
  badge = { setAppBadge: vi.fn(async (_count?: number) => {}), clearAppBadge: vi.fn(async () => {}) };
  FakeNotification.permission = 'granted';
  FakeNotification.created = [];
  FakeNotification.requestPermission.mockClear();
  focus.mockClear();
  onOpen.mockClear();
  serviceWorker = undefined;
});

describe('through the service worker', () => {
  it('a controlling service worker is asked to notify (it reads the card itself), once per card; no page notification', () => {
    serviceWorker = { posted: [], controlled: true, handlers: [] };
    const a = alerts();
    expect(a.approvalRequested(request)).toBe(true);
    expect(a.approvalRequested(request)).toBe(false);
    expect(serviceWorker.posted).toEqual([{ type: 'pausepoint:approval-pending', pausePointId: 'p1' }]);
    expect(FakeNotification.created).toHaveLength(0);
  });

  it('nothing is asked while the page is visible or notifications are off', () => {
    serviceWorker = { posted: [], controlled: true, handlers: [] };
    visibility = 'visible';
    expect(alerts().approvalRequested(request)).toBe(false);
    visibility = 'hidden';
    settings = { notifications: false, badge: true };
    expect(alerts().approvalRequested(request)).toBe(false);
    expect(serviceWorker.posted).toEqual([]);
  });

  it('without a controlling service worker, the page notifies as before', () => {
    serviceWorker = { posted: [], controlled: false, handlers: [] };
    expect(alerts().approvalRequested(request)).toBe(true);
    expect(FakeNotification.created).toHaveLength(1);
  });

  it('a reminder is asked of the service worker (which reminds only while no tab is visible), even from a visible tab', () => {
    serviceWorker = { posted: [], controlled: true, handlers: [] };
    visibility = 'visible';
    expect(alerts().remind(request)).toBe(true);
    expect(serviceWorker.posted).toEqual([{ type: 'pausepoint:approval-reminder', pausePointId: 'p1' }]);
    settings = { notifications: false, badge: true };
    expect(alerts().remind(request)).toBe(false);
    expect(serviceWorker.posted).toHaveLength(1);
  });

  it('without a service worker nothing reminds: only it can tell whether anyone is looking', () => {
    expect(alerts().remind(request)).toBe(false);
    expect(FakeNotification.created).toHaveLength(0);
  });

  it('a decided card closes the service worker’s notification too', () => {
    serviceWorker = { posted: [], controlled: true, handlers: [] };
    alerts().dismiss('p1');
    expect(serviceWorker.posted).toEqual([{ type: 'pausepoint:approval-settled', pausePointId: 'p1' }]);
  });

  it('the service worker’s “open this card” focuses the tab and shows the card; other messages are ignored', () => {
    serviceWorker = { posted: [], controlled: true, handlers: [] };
    const stop = alerts().followServiceWorker();
    serviceWorker.handlers[0]!({ type: 'something-else' });
    serviceWorker.handlers[0]!({ type: 'pausepoint:open-card', conversationId: 1 });
    expect(onOpen).not.toHaveBeenCalled();
    serviceWorker.handlers[0]!({ type: 'pausepoint:open-card', conversationId: 'c1', pausePointId: 'p1' });
    expect(focus).toHaveBeenCalledOnce();
    expect(onOpen).toHaveBeenCalledExactlyOnceWith('c1', 'p1');
    stop();
    expect(serviceWorker.handlers).toHaveLength(0);
  });

  it('the service worker’s “decide this card” (another device’s conversation) shows the card and decides it as its button would', () => {
    serviceWorker = { posted: [], controlled: true, handlers: [] };
    const onDecide = vi.fn();
    createApprovalAlerts({ getSettings: () => settings, onOpen, onDecide, environment }).followServiceWorker();
    serviceWorker.handlers[0]!({ type: 'pausepoint:decide-card', conversationId: 'c1', pausePointId: 'p1', action: 'delete everything' });
    expect(onDecide).not.toHaveBeenCalled();
    serviceWorker.handlers[0]!({ type: 'pausepoint:decide-card', conversationId: 'c1', pausePointId: 'p1', action: 'decline', viewHash: 'e'.repeat(64) });
    expect(onOpen).toHaveBeenCalledExactlyOnceWith('c1', 'p1');
    expect(onDecide).toHaveBeenCalledExactlyOnceWith('p1', 'decline', 'e'.repeat(64));
  });
});

describe('approvalRequested', () => {
  it('notifies when the page is hidden and notifications are allowed, tagged by pause point', () => {
    expect(alerts().approvalRequested(request)).toBe(true);
    expect(FakeNotification.created).toHaveLength(1);
    expect(FakeNotification.created[0]).toMatchObject({ title: 'Approval needed', options: { body: request.title, tag: 'p1' } });
  });

  it('stays quiet while the page is visible', () => {
    visibility = 'visible';
    expect(alerts().approvalRequested(request)).toBe(false);
    expect(FakeNotification.created).toHaveLength(0);
  });

  it.each([
    ['turned off in Settings', () => (settings = { notifications: false, badge: true })],
    ['settings not loaded', () => (settings = undefined)],
    ['permission denied', () => (FakeNotification.permission = 'denied')],
    ['permission never asked', () => (FakeNotification.permission = 'default')],
  ])('stays quiet when %s', (_, arrange) => {
    arrange();
    expect(alerts().approvalRequested(request)).toBe(false);
    expect(FakeNotification.created).toHaveLength(0);
  });

  it('stays quiet where notifications do not exist', () => {
    const quiet = createApprovalAlerts({ getSettings: () => settings, onOpen, environment: () => ({ ...environment(), Notification: undefined }) });
    expect(quiet.approvalRequested(request)).toBe(false);
  });

  it('alerts once per pause point', () => {
    const a = alerts();
    a.approvalRequested(request);
    a.approvalRequested(request);
    a.approvalRequested({ ...request, pausePointId: 'p2' });
    expect(FakeNotification.created.map((n) => n.options.tag)).toEqual(['p1', 'p2']);
  });

  it('clicking the notification focuses the window and opens the card', () => {
    alerts().approvalRequested(request);
    const notification = FakeNotification.created[0]!;
    const click = new Event('click', { cancelable: true });
    notification.onclick?.(click);
    expect(click.defaultPrevented).toBe(true);
    expect(focus).toHaveBeenCalledOnce();
    expect(onOpen).toHaveBeenCalledWith('c1', 'p1');
    expect(notification.close).toHaveBeenCalled();
  });

  it('dismiss closes the notification of a card decided elsewhere', () => {
    const a = alerts();
    a.approvalRequested(request);
    a.dismiss('p1');
    expect(FakeNotification.created[0]!.close).toHaveBeenCalled();
    a.dismiss('unknown');
  });

  it('survives a browser that refuses page notifications', () => {
    const throwing = function () {
      throw new TypeError('Illegal constructor');
    } as unknown as AlertEnvironment['Notification'];
    Object.assign(throwing!, { permission: 'granted' });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const a = createApprovalAlerts({ getSettings: () => settings, onOpen, environment: () => ({ ...environment(), Notification: throwing }) });
    expect(a.approvalRequested(request)).toBe(false);
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });
});

describe('ensurePermission', () => {
  beforeEach(() => {
    FakeNotification.permission = 'default';
  });

  it('asks during a user gesture', async () => {
    expect(await alerts().ensurePermission()).toBe('granted');
    expect(FakeNotification.requestPermission).toHaveBeenCalledOnce();
  });

  it('never asks outside a user gesture (on load, from a timer)', async () => {
    activation = { isActive: false, hasBeenActive: true };
    expect(await alerts().ensurePermission()).toBe('default');
    expect(FakeNotification.requestPermission).not.toHaveBeenCalled();
  });

  it('does not ask again once answered, or when notifications are off', async () => {
    FakeNotification.permission = 'denied';
    expect(await alerts().ensurePermission()).toBe('denied');
    FakeNotification.permission = 'default';
    settings = { notifications: false, badge: true };
    expect(await alerts().ensurePermission()).toBe('default');
    expect(FakeNotification.requestPermission).not.toHaveBeenCalled();
  });

  it('asks once when called twice in the same gesture', async () => {
    const a = alerts();
    const [first, second] = await Promise.all([a.ensurePermission(), a.ensurePermission()]);
    expect([first, second]).toEqual(['granted', 'granted']);
    expect(FakeNotification.requestPermission).toHaveBeenCalledOnce();
  });

  it('reports unsupported where there are no notifications', async () => {
    const a = createApprovalAlerts({ getSettings: () => settings, onOpen, environment: () => ({ ...environment(), Notification: undefined }) });
    expect(await a.ensurePermission()).toBe('unsupported');
  });
});

describe('setBadge', () => {
  it('shows the pending count when allowed', async () => {
    await alerts().setBadge(3);
    expect(badge!.setAppBadge).toHaveBeenCalledWith(3);
  });

  it('clears the badge at zero, or when badges are off', async () => {
    await alerts().setBadge(0);
    settings = { notifications: true, badge: false };
    await alerts().setBadge(2);
    expect(badge!.setAppBadge).not.toHaveBeenCalled();
    expect(badge!.clearAppBadge).toHaveBeenCalledTimes(2);
  });

  it('does nothing where badges are unsupported, and survives a refusal', async () => {
    badge = undefined;
    await expect(alerts().setBadge(2)).resolves.toBeUndefined();
    badge = { setAppBadge: vi.fn(async (_count?: number) => Promise.reject(new DOMException('no', 'NotAllowedError'))), clearAppBadge: vi.fn(async () => {}) };
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await expect(alerts().setBadge(2)).resolves.toBeUndefined();
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });
});

describe('with the real browser globals', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('reads document.visibilityState and the global Notification', () => {
    vi.stubGlobal('Notification', FakeNotification);
    const a = createApprovalAlerts({ getSettings: () => settings, onOpen });
    // jsdom's page is visible: no notification.
    expect(document.visibilityState).toBe('visible');
    expect(a.approvalRequested(request)).toBe(false);
    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    expect(a.approvalRequested(request)).toBe(true);
  });
});
