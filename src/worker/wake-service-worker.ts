/** What the page needs of `navigator.serviceWorker` to wake it (a seam for tests). */
export type ServiceWorkerHost = { readonly controller: Pick<ServiceWorker, 'postMessage'> | null } | undefined;

/** The message itself means nothing to the service worker (its only message listener reads SKIP_WAITING); arriving starts it. */
export const WAKE_MESSAGE = { type: 'pausepoint:wake' } as const;

/**
 * Starts the page's service worker if it has stopped, without waiting for it.
 *
 * Each request the agent worker makes is first offered to the service
 * worker's fetch handler: a dedicated worker is a client of its page's
 * service worker, and Chromium applies no static routes to a worker's
 * requests (tried: `addRoutes` took page requests past it, not the worker's).
 * Chromium stops a service worker after 30 s without events, so a press
 * after half a minute spent reading a card or typing started the service
 * worker on the model request's way out (bench:latency rows a″ and b″: its
 * thread busy 40–130 ms in the request's path on a loaded machine). Woken at
 * the press, it starts while the agent worker is still in IndexedDB.
 */
export function wakeServiceWorker(host: ServiceWorkerHost = globalThis.navigator?.serviceWorker): void {
  host?.controller?.postMessage(WAKE_MESSAGE);
}
