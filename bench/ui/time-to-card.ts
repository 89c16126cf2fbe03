import type { BrowserContext } from '@playwright/test';
import { saveProfile, startProfile, summarize, type ProfileSummary } from './cpu-profile.ts';
import { idbTimeline, watchIdb, type IdbTransaction } from './idb-timeline.ts';
import { startTrace, tasksBetween } from './main-thread-trace.ts';
import type { SeededCard } from './seed-in-page.ts';

declare global {
  interface Window {
    __benchCard?: { inDom?: number; painted?: number };
  }
}

export interface CardTiming {
  /** Navigation start → the card is in the DOM and rendered visible (MutationObserver, in the page). */
  inDomMs: number;
  /** Navigation start → the frame that shows it has been produced (next animation frame, then a task). */
  paintedMs: number;
  /** Date.now() in Node around `page.goto` and the wait for the page's mark: includes Playwright's round trips and polling interval. */
  wallMs: number;
  /** CPU time the page's main thread ran between navigation start and the card entering the DOM (Chrome trace): what the load cost, whatever the machine's load. */
  cpuMs: number;
  /** Only when asked for: the load's CPU profile and the page's IndexedDB transactions. */
  diagnosis?: { cpu: ProfileSummary; idb: IdbTransaction[] };
}

export interface DiagnoseOptions {
  profilePath: string;
  resolve: Parameters<typeof summarize>[1]['resolve'];
}

/**
 * Runs in the page before any of its scripts. Times against `performance.now()`,
 * whose origin is the navigation's start, so the figure holds no Playwright
 * round trips: it covers the request, parsing the app, opening IndexedDB, the
 * reads and Svelte's render.
 */
function watchForCard(pausePointId: string): void {
  const mark: NonNullable<Window['__benchCard']> = {};
  window.__benchCard = mark;
  const selector = `section[data-pause-point="${CSS.escape(pausePointId)}"]`;
  const observer = new MutationObserver(() => {
    const card = document.querySelector(selector);
    if (!card?.checkVisibility()) return;
    observer.disconnect();
    mark.inDom = performance.mark('bench-card').startTime;
    // rAF runs just before the frame is painted; a message posted from it is handled after.
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        mark.painted = performance.now();
      };
      channel.port2.postMessage(null);
    });
  });
  observer.observe(document, { childList: true, subtree: true });
}

/** Opens `path` in a new tab of `context` and times the card's appearance there. */
export async function timeToCard(context: BrowserContext, path: string, card: SeededCard, diagnose?: DiagnoseOptions): Promise<CardTiming> {
  const page = await context.newPage();
  try {
    await page.addInitScript(watchForCard, card.id);
    if (diagnose) await watchIdb(page);
    const browser = context.browser();
    if (!browser) throw new Error('The context has no browser to trace');
    const stopTrace = await startTrace(browser, page);
    const profiling = diagnose ? await startProfile(page) : undefined;
    const before = Date.now();
    await page.goto(path, { waitUntil: 'commit' });
    // A bare property check every 20 ms: Playwright's own role and visibility
    // polling walks the whole DOM on the page's main thread while the app
    // renders, and would slow the bigger page more than the smaller one.
    await page.waitForFunction(() => window.__benchCard?.painted !== undefined, undefined, { polling: 20, timeout: 30_000 });
    const wallMs = Date.now() - before;
    const { inDom, painted } = await page.evaluate(() => ({ ...window.__benchCard }));
    if (inDom === undefined || painted === undefined) throw new Error(`The card ${card.id} was never seen entering the page`);
    const profile = await profiling?.stop();
    const thread = (await stopTrace())('bench-card');
    // Only now, untimed: the card is the region named by its title, and still pending (Approve shown).
    const region = page.getByRole('region', { name: card.title, exact: true });
    await region.getByRole('button', { name: 'Approve', exact: true }).waitFor({ timeout: 5_000 });
    if (!(await region.isVisible())) throw new Error(`The card ${card.id} is in the page but not visible`);
    // performance.now() counts from navigation start, so the mark's page time places navigation start on the trace clock.
    const cpuMs = tasksBetween(thread, thread.markTs - inDom * 1000, thread.markTs).reduce((sum, t) => sum + t.cpuMs, 0);
    const timing = { inDomMs: inDom, paintedMs: painted, wallMs, cpuMs };
    if (!diagnose || !profile) return timing;
    saveProfile(diagnose.profilePath, profile);
    const idb = await idbTimeline(page);
    return { ...timing, diagnosis: { cpu: summarize(profile, { resolve: diagnose.resolve }), idb } };
  } finally {
    await page.close();
  }
}
