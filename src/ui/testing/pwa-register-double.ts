import type { RegisterSWOptions } from 'virtual:pwa-register';
import { vi } from 'vitest';

/**
 * `virtual:pwa-register` in the UI tests (vite.config.ts aliases it here): vite-plugin-pwa generates that module
 * only for a build. One double for every file, rather than a `vi.mock` in each, so the files that render the
 * update banner share their worker's modules with the rest (a mocked module needs a module graph of its own).
 * A test reads what the banner registered with, and calls `reset()` before each test.
 */
export const serviceWorker = {
  /** The options of the last `registerSW` call: its callbacks stand in for the service worker's news. */
  options: undefined as RegisterSWOptions | undefined,
  /** What `registerSW` returns: activates the waiting worker (and reloads, when asked). */
  update: vi.fn(async (_reload?: boolean) => {}),
  reset() {
    this.options = undefined;
    this.update.mockClear();
  },
};

export function registerSW(options: RegisterSWOptions = {}) {
  serviceWorker.options = options;
  return serviceWorker.update;
}
