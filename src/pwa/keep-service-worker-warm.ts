import type { PageToServiceWorker } from './sw-message.ts';

/**
 * Keeps the service worker running while a tab of the app is visible.
 *
 * Why: Chromium stops a service worker after 30 s without events, and every
 * request of a controlled page and of its workers passes through a service
 * worker with a fetch handler, which must first be started again. So the
 * model request after Approve or Send, made by the agent worker, waited some
 * 40 ms for it each time the user had read a card or typed for half a minute,
 * only for the handler to leave the request alone. (The static routing API,
 * `InstallEvent.addRoutes`, would let those requests bypass it, but Chromium
 * applies its routes to a window's requests only, not to a dedicated worker's:
 * tried and measured.) A message every few seconds while visible costs next
 * to nothing; hidden tabs send none, and the worker may stop as before.
 * Becoming visible sends one at once, so the worker starts while the user
 * looks.
 */
export const KEEP_WARM_INTERVAL_MS = 10_000;

export interface KeepWarmEnvironment {
  document: Pick<Document, 'visibilityState' | 'addEventListener' | 'removeEventListener'>;
  container: Pick<ServiceWorkerContainer, 'controller'>;
  setInterval: (handler: () => void, ms: number) => unknown;
  clearInterval: (handle: unknown) => void;
}

const KEEP_WARM: PageToServiceWorker = { type: 'pausepoint:keep-warm' };

/** Starts the pings; returns the function that stops them. */
export function keepServiceWorkerWarm(env: KeepWarmEnvironment, intervalMs = KEEP_WARM_INTERVAL_MS): () => void {
  const ping = () => {
    if (env.document.visibilityState === 'visible') env.container.controller?.postMessage(KEEP_WARM);
  };
  const handle = env.setInterval(ping, intervalMs);
  env.document.addEventListener('visibilitychange', ping);
  return () => {
    env.clearInterval(handle);
    env.document.removeEventListener('visibilitychange', ping);
  };
}

/** The pings in this browser tab, where service workers exist. */
export function keepThisServiceWorkerWarm(): () => void {
  if (!('serviceWorker' in navigator)) return () => undefined;
  return keepServiceWorkerWarm({
    document,
    container: navigator.serviceWorker,
    setInterval: (handler, ms) => setInterval(handler, ms),
    clearInterval: (handle) => clearInterval(handle as ReturnType<typeof setInterval>),
  });
}
