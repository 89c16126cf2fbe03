// First: configures zod before any schema is built (see zod-config.ts); approvals.ts builds them.
import '../../zod-config.ts';
import { readNotificationData } from '../approval-notification.ts';
import { readPageMessage } from '../sw-message.ts';
import { Precache, type PrecacheEntry, type PrecacheRoute } from './precache.ts';

/**
 * The service worker: the precache the installed app opens offline from, and
 * the approval notifications (approvals.ts). What runs at its every start is
 * only this: Chromium starts a stopped worker on each navigation into its
 * scope, and on each request of the agent worker after 30 s without events,
 * so its start competes with a reload's first screen and delays a press.
 */
declare let self: ServiceWorkerGlobalScope & { __WB_MANIFEST: PrecacheEntry[] };

const precache = new Precache(self.__WB_MANIFEST, self.registration.scope);

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

/** The notifications' module, evaluated on first use (the bundle inlines it behind a lazy initialiser). */
const approvals = () => import('./approvals.ts');

self.addEventListener('message', (event) => {
  const message = readPageMessage(event.data);
  if (!message) return;
  switch (message.type) {
    case 'pausepoint:keep-warm':
      break;
    case 'SKIP_WAITING':
      void self.skipWaiting();
      break;
    case 'pausepoint:approval-pending':
      keepAlive(event, approvals().then((module) => module.notifyPending(message.pausePointId, false)));
      break;
    case 'pausepoint:approval-reminder':
      keepAlive(event, approvals().then((module) => module.notifyPending(message.pausePointId, true)));
      break;
    case 'pausepoint:approval-settled':
      keepAlive(event, approvals().then((module) => module.closeNotifications(message.pausePointId)));
      break;
  }
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const data = readNotificationData(event.notification.data);
  if (!data) return;
  keepAlive(
    event,
    approvals()
      .then((module) => module.onNotificationClick(data, event.action))
      .catch((error: unknown) => console.error('Pausepoint: acting on a notification failed', error)),
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
