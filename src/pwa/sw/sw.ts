import { z } from 'zod';
import type { DecidedBy } from '../../engine/records/index.ts';
import { PausepointDb } from '../../storage/db.ts';
import { deviceId, readSettings } from '../../storage/settings-repo.ts';
import { routeHref } from '../../ui/state/route.ts';
import { deviceLabel } from '../../worker/device-label.ts';
import { alreadyDecidedNotification, approvalNotification, readNotificationData, type ApprovalNotificationData } from '../approval-notification.ts';
import { decideFromNotification, SERVICE_WORKER_OWNER } from '../decide-from-notification.ts';
import type { PageToServiceWorker, ServiceWorkerToPage } from '../sw-message.ts';
import { Precache, type PrecacheEntry, type PrecacheRoute } from './precache.ts';

/**
 * The service worker: the precache the installed app opens offline from, and
 * the approval notifications — shown from here (Android's Chrome shows no
 * other kind), with Approve and Decline that decide the card from here,
 * through the card's own compare-and-set, when no tab is at hand.
 */
declare let self: ServiceWorkerGlobalScope & { __WB_MANIFEST: PrecacheEntry[] };

const precache = new Precache(self.__WB_MANIFEST, self.registration.scope);
const db = new PausepointDb();

self.addEventListener('install', (event) => {
  addRoutes(event);
  event.waitUntil(precache.install());
});
// A first visit comes under this worker at once; an update still waits for the user's Reload (SKIP_WAITING).
self.addEventListener('activate', (event) => event.waitUntil(Promise.all([precache.activate(), self.clients.claim()])));
self.addEventListener('fetch', (event) => {
  // Only what the precache holds is answered here; every other request (the model's endpoint, tools) is left alone.
  if (!precache.handles(event.request)) return;
  event.respondWith(precache.match(event.request).then((cached) => cached ?? fetch(event.request)));
});

const PageMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('pausepoint:approval-pending'), pausePointId: z.string() }),
  z.object({ type: z.literal('pausepoint:approval-reminder'), pausePointId: z.string() }),
  z.object({ type: z.literal('pausepoint:approval-settled'), pausePointId: z.string() }),
  z.object({ type: z.literal('pausepoint:keep-warm') }),
  z.object({ type: z.literal('SKIP_WAITING') }),
]) satisfies z.ZodType<PageToServiceWorker>;

self.addEventListener('message', (event) => {
  const parsed = PageMessage.safeParse(event.data);
  if (!parsed.success) return;
  const message = parsed.data;
  switch (message.type) {
    case 'pausepoint:keep-warm':
      break;
    case 'SKIP_WAITING':
      void self.skipWaiting();
      break;
    case 'pausepoint:approval-pending':
      keepAlive(event, notifyPending(message.pausePointId, false));
      break;
    case 'pausepoint:approval-reminder':
      keepAlive(event, notifyPending(message.pausePointId, true));
      break;
    case 'pausepoint:approval-settled':
      keepAlive(event, closeNotifications(message.pausePointId));
      break;
  }
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const data = readNotificationData(event.notification.data);
  if (!data) return;
  keepAlive(
    event,
    onNotificationClick(data, event.action).catch((error: unknown) => console.error('Pausepoint: acting on a notification failed', error)),
  );
});

/** The precache's static routes, where the browser has them; without, the fetch handler answers as before. */
function addRoutes(event: ExtendableEvent): void {
  const { addRoutes } = event as ExtendableEvent & { addRoutes?: (rules: PrecacheRoute[]) => Promise<void> };
  if (typeof addRoutes !== 'function' || typeof URLPattern !== 'function') return;
  addRoutes.call(event, precache.routes()).catch((error: unknown) => console.warn('Pausepoint: the static routes were refused; the fetch handler answers instead', error));
}

/**
 * Keeps the worker alive until `work` settles. An event dispatched from script
 * (as the end-to-end tests do) refuses `waitUntil`; its work runs all the same.
 */
function keepAlive(event: ExtendableEvent, work: Promise<unknown>): void {
  try {
    event.waitUntil(work);
  } catch (error) {
    if (!(error instanceof DOMException && error.name === 'InvalidStateError')) throw error;
  }
}

/** Reminded cards, so that several tabs asking at once remind once (a restarted worker may remind again: harmless). */
const reminded = new Set<string>();

/** Shows a pending card's notification, read from storage: only while it is pending, notifications are on, and no tab is visible. */
async function notifyPending(pausePointId: string, reminder: boolean): Promise<void> {
  const pause = await db.pausePoints.get(pausePointId);
  if (!pause || pause.status !== 'pending') return;
  if ((await readSettings(db))?.notifications !== true) return;
  if (await anyTabVisible()) return;
  if (reminder) {
    if (reminded.has(pausePointId)) return;
    reminded.add(pausePointId);
  }
  const { title, options } = approvalNotification(pause, { reminder });
  try {
    await self.registration.showNotification(title, options);
  } catch (error) {
    // Refused without the permission: the app badge still counts the card.
    console.warn('Pausepoint: could not show a notification', error);
  }
}

async function onNotificationClick(data: ApprovalNotificationData, action: string): Promise<void> {
  if (action === 'approve' || action === 'decline') {
    const result = await decideFromNotification(db, data.pausePointId, action, await decidedBy());
    switch (result.outcome) {
      case 'decided':
      case 'expired':
        await closeNotifications(data.pausePointId);
        await updateBadge();
        if (result.outcome === 'expired') await show(alreadyDecidedNotification(result.pausePoint.title, data, 'expired'));
        await resumeSomewhere(data);
        return;
      case 'already_decided':
        await show(alreadyDecidedNotification(result.pausePoint.title, data, result.pausePoint.status));
        return;
      case 'not_found':
        return;
      case 'refused':
        break;
    }
  }
  await openCard(data);
}

/**
 * The decided conversation is left `running` with no live owner: an open tab's
 * worker takes it over within seconds (it watches for exactly that). With no
 * tab open, the app is opened on it, and its worker does the same.
 */
async function resumeSomewhere(data: ApprovalNotificationData): Promise<void> {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  if (windows.length > 0) return;
  await openWindow(routeHref({ view: 'conversation', id: data.conversationId }));
}

/** A tap on the notification: the app, on the card. */
async function openCard(data: ApprovalNotificationData): Promise<void> {
  const [client] = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  if (!client) {
    await openWindow(routeHref({ view: 'conversation', id: data.conversationId, cardId: data.pausePointId }));
    return;
  }
  const message: ServiceWorkerToPage = { type: 'pausepoint:open-card', ...data };
  client.postMessage(message);
  await client.focus().catch((error: unknown) => console.warn('Pausepoint: could not focus the app', error));
}

async function openWindow(href: string): Promise<void> {
  const url = new URL(href, self.registration.scope).href;
  await self.clients.openWindow(url).catch((error: unknown) => console.warn('Pausepoint: could not open the app', error));
}

async function anyTabVisible(): Promise<boolean> {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  return windows.some((client) => client.visibilityState === 'visible');
}

async function closeNotifications(pausePointId: string): Promise<void> {
  for (const notification of await self.registration.getNotifications({ tag: pausePointId })) notification.close();
}

async function show({ title, options }: ReturnType<typeof approvalNotification>): Promise<void> {
  await self.registration.showNotification(title, options).catch((error: unknown) => console.warn('Pausepoint: could not show a notification', error));
}

async function updateBadge(): Promise<void> {
  if (typeof self.navigator.setAppBadge !== 'function') return;
  const [count, settings] = await Promise.all([db.pausePoints.where('status').equals('pending').count(), readSettings(db)]);
  try {
    if (count > 0 && settings?.badge === true) await self.navigator.setAppBadge(count);
    else await self.navigator.clearAppBadge();
  } catch (error) {
    console.warn('Pausepoint: could not update the app badge', error);
  }
}

async function decidedBy(): Promise<DecidedBy> {
  return { tabId: SERVICE_WORKER_OWNER, deviceId: await deviceId(db), label: `${deviceLabel(self.navigator.userAgent)}, from a notification` };
}
