import type { ClockPort, IdPort, NetworkPort } from '../engine/ports.ts';

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

/** `navigator.onLine` and the `online` event, which workers receive too. */
export const browserNetwork: NetworkPort = {
  isOnline: () => navigator.onLine,
  whenOnline: (signal) =>
    new Promise((resolve, reject) => {
      if (navigator.onLine) return resolve();
      const done = () => {
        removeEventListener('online', done);
        resolve();
      };
      addEventListener('online', done);
      signal.addEventListener('abort', () => {
        removeEventListener('online', done);
        reject(signal.reason);
      }, { once: true });
    }),
};
