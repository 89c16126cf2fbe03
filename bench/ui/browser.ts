import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { findChromium } from '../../scripts/chromium.mjs';

const ARGS = ['--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

function chromiumPath(): string {
  const found = findChromium();
  if (!found) throw new Error('No Chromium found: set PAUSEPOINT_CHROMIUM, or run `node scripts/chromium.mjs --install`');
  return found.path;
}

/** The same Chromium and flags as playwright.config.ts, plus `extraArgs` (bench:audit's heap probes). */
export async function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: [...ARGS, ...extraArgs] });
}

/**
 * The same Chromium with a profile on disk in `userDataDir`. A context of
 * `launchChromium` is off the record: its IndexedDB lives in memory, and a
 * commit never reaches the disk.
 */
export async function launchChromiumOnDisk(userDataDir: string, baseURL?: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext(userDataDir, { executablePath: chromiumPath(), args: ARGS, ...(baseURL ? { baseURL } : {}) });
}

/**
 * A fresh profile (its own IndexedDB and service worker) on the preview origin.
 * tsx compiles this bench with esbuild's keepNames, which wraps named functions
 * in `__name(...)` — also inside the functions handed to `page.evaluate`, which
 * then run in the page where no `__name` exists. The init script supplies one.
 */
export async function newProfile(browser: Browser, origin: string): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: origin, viewport: { width: 1280, height: 800 } });
  await context.addInitScript({ content: 'globalThis.__name ??= (fn) => fn;' });
  return context;
}

/** Waits until the service worker controls the page, so later loads are served as a returning user's are. */
export async function waitForServiceWorker(page: Page): Promise<void> {
  await page.waitForFunction(() => navigator.serviceWorker?.controller?.state === 'activated', undefined, { timeout: 30_000 });
}
