import type { DecidedBy } from '../../engine/records/index.ts';
import { PausepointDb } from '../../storage/db.ts';
import { deviceId, readSettings } from '../../storage/settings-repo.ts';
import { routeHref } from '../../ui/state/route.ts';
import { deviceLabel } from '../../worker/device-label.ts';
import { alreadyDecidedNotification, approvalNotification, type ApprovalNotificationData } from '../approval-notification.ts';
import { decideFromNotification, SERVICE_WORKER_OWNER, toolChanged, viewToolChanged } from '../decide-from-notification.ts';
import type { ServiceWorkerToPage } from '../sw-message.ts';

/**
 * The service worker's approval notifications: shown from here (Android's
 * Chrome shows no other kind), with Approve and Decline that decide the card
 * from here, through the card's own compare-and-set, when no tab is at hand.
 * Loaded by sw.ts on the first message or click that needs it, not at start:
 * it brings Dexie and the records' zod schemas, whose evaluation (30–60 ms)
 * came with every start of the worker — and Chromium starts it on every
 * navigation into its scope, beside the page's own start.
 */
declare let self: ServiceWorkerGlobalScope;

const db = new PausepointDb();

/** Reminded cards, so that several tabs asking at once remind once (a restarted worker may remind again: harmless). */
const reminded = new Set<string>();

/** Shows a pending card's notification, read from storage: only while it is pending, notifications are on, and no tab is visible. */
export async function notifyPending(pausePointId: string, reminder: boolean): Promise<void> {
  const pause = await db.pausePoints.get(pausePointId);
  if (!pause || pause.status !== 'pending') return;
  if ((await readSettings(db))?.notifications !== true) return;
  if (await anyTabVisible()) return;
  if (reminder) {
    if (reminded.has(pausePointId)) return;
    reminded.add(pausePointId);
  }
  // The notification renders the card's decision view, and an Approve on it is bound to that view's hash (issue 32).
  const context = { definitionChanged: await toolChanged(db, pausePointId), toolChanged: await viewToolChanged(db, pausePointId) };
  const { title, options } = approvalNotification(pause, { reminder, ...context });
  try {
    await self.registration.showNotification(title, options);
  } catch (error) {
    // Refused without the permission: the app badge still counts the card.
    console.warn('Pausepoint: could not show a notification', error);
  }
}

export async function onNotificationClick(data: ApprovalNotificationData, action: string): Promise<void> {
  // A notification shown without a view (one from before decisions were bound to it) only opens the card.
  if ((action === 'approve' || action === 'decline') && data.viewHash !== undefined) {
    const result = await decideFromNotification(db, data.pausePointId, action, await decidedBy(), { viewHash: data.viewHash });
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
      case 'elsewhere':
        // Only a tab's worker can claim it on the sync server: an open tab decides it; with none, the app opens on the card.
        if (await decideInATab({ ...data, viewHash: data.viewHash }, action)) return closeNotifications(data.pausePointId);
        break;
      case 'refused':
        break;
    }
  }
  await openCard(data);
}

async function decideInATab(data: ApprovalNotificationData & { viewHash: string }, action: 'approve' | 'decline'): Promise<boolean> {
  const [client] = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  if (!client) return false;
  const message: ServiceWorkerToPage = { type: 'pausepoint:decide-card', ...data, action };
  client.postMessage(message);
  await client.focus().catch((error: unknown) => console.warn('Pausepoint: could not focus the app', error));
  return true;
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

export async function closeNotifications(pausePointId: string): Promise<void> {
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
