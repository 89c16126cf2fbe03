import type { ClockPort } from '../engine/clock-port.ts';
import type { IdPort } from '../engine/id-port.ts';
import type { NetworkPort } from '../engine/network-port.ts';

export const systemClock: ClockPort = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve, reject) => {
      signal.throwIfAborted();
      const timer = setTimeout(resolve, ms);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(signal.reason);
      }, { once: true });
    }),
};

export const randomIds: IdPort = { uuid: () => crypto.randomUUID() };

const ONLINE_POLL_MS = 1_000;

/**
 * `navigator.onLine` and the `online` event. A worker does not always receive
 * `online` when connectivity returns (Chromium's network emulation, for one,
 * flips `onLine` without firing it there), so a cheap poll backs the event up.
 */
export const browserNetwork: NetworkPort = {
  isOnline: () => navigator.onLine,
  whenOnline: (signal) =>
    new Promise((resolve, reject) => {
      if (navigator.onLine) return resolve();
      const finish = () => {
        removeEventListener('online', check);
        clearInterval(poll);
      };
      const check = () => {
        if (!navigator.onLine) return;
        finish();
        resolve();
      };
      const poll = setInterval(check, ONLINE_POLL_MS);
      addEventListener('online', check);
      signal.addEventListener('abort', () => {
        finish();
        reject(signal.reason);
      }, { once: true });
    }),
};
