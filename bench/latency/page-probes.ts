import type { Page } from '@playwright/test';

/**
 * What bench:latency installs in every document before the app's own scripts
 * (`context.addInitScript`). All times are epoch milliseconds on the page's
 * high-resolution clock, `performance.timeOrigin + performance.now()`: the
 * same expression the fake model server stamps requests with (`receivedAt`),
 * so on one machine a press in the page and a request at the server are on
 * one clock. The bench checks that claim every run (the clock check).
 */

export interface Press {
  /** The button's text. */
  label: string;
  /** The click event's own timestamp: when the browser received the input, before it waited for the page's main thread. */
  at: number;
  /** When the first (capture-phase) listener ran: `at` plus the main thread's input delay. */
  seenAt: number;
}

export interface CardWatch {
  pausePointId: string;
  /** The card's Approve button is in the DOM, enabled and visible (MutationObserver). */
  actionableAt?: number;
  /** The frame showing it has been produced (next animation frame, then a task). */
  paintedAt?: number;
  /**
   * When the browser presented the frame holding the button's text: Element
   * Timing's `renderTime` for the button, tagged with `elementtiming` by the
   * observer in the microtask after it entered the DOM, before any frame showed it.
   */
  presentedAt?: number;
}

export interface WorkerWatch {
  /** `new Worker(...)` returned in the page. */
  createdAt?: number;
  /** The worker's `ready` event arrived in the page. */
  readyAt?: number;
  /** The answer to the probe intent, posted at creation, arrived in the page. */
  answeredAt?: number;
  answer?: unknown;
}

export interface LatencyMarks {
  timeOrigin: number;
  /** A user-timing mark made at document start, unique to this document, and its epoch time: places this page's clock on a Chrome trace's. */
  clockMark: { name: string; at: number };
  presses: Press[];
  card?: CardWatch;
  worker: WorkerWatch;
}

declare global {
  interface Window {
    __latency?: LatencyMarks;
  }
}

/** A sessionStorage key: it survives the tab's reloads, between which an init script's argument cannot change. */
export const WATCH_CARD_KEY = 'bench-latency:watch-card';
/** The probe intent's id: the app's own client numbers from 1 and ignores answers to ids it did not send. */
export const PROBE_ID = -15;

/** A new clock mark in a document that began before a trace did (the trace has to hold the mark). */
export async function remarkClock(page: Page): Promise<void> {
  await page.evaluate(() => {
    const marks = window.__latency;
    if (!marks) throw new Error('The latency probes are not installed in this page');
    const name = `bench-latency-clock:${crypto.randomUUID()}`;
    marks.clockMark = { name, at: performance.timeOrigin + performance.mark(name).startTime };
  });
}

/**
 * Runs in the page before any of its scripts (`page.addInitScript`).
 * Self-contained: it is serialised into the page, so it may use nothing from
 * this module's scope (hence the repeated literals). `probeWorker`: post the
 * cold-start probe intent to the app's worker the moment it is created.
 */
export function installLatencyProbes({ probeWorker }: { probeWorker: boolean }): void {
  const now = () => performance.timeOrigin + performance.now();
  const clockName = `bench-latency-clock:${crypto.randomUUID()}`;
  const clockMark = { name: clockName, at: performance.timeOrigin + performance.mark(clockName).startTime };
  const marks: LatencyMarks = { timeOrigin: performance.timeOrigin, clockMark, presses: [], worker: {} };
  window.__latency = marks;

  // Capture phase on the window: the first listener of all to see the click, before the app's.
  window.addEventListener(
    'click',
    (event) => {
      const button = event.target instanceof Element ? event.target.closest('button') : null;
      if (!button) return;
      marks.presses.push({ label: button.textContent?.trim() ?? '', at: performance.timeOrigin + event.timeStamp, seenAt: now() });
    },
    { capture: true },
  );

  const watched = sessionStorage.getItem('bench-latency:watch-card');
  if (watched) {
    sessionStorage.removeItem('bench-latency:watch-card');
    const card: CardWatch = { pausePointId: watched };
    marks.card = card;
    const selector = `section[data-pause-point="${CSS.escape(watched)}"] button`;
    const actionable = () =>
      [...document.querySelectorAll<HTMLButtonElement>(selector)].some((b) => b.textContent?.trim() === 'Approve' && !b.disabled && b.checkVisibility());
    // Fires in the microtask after each DOM change (no polling interval, no round trip to the bench):
    // the first moment the DOM holds an enabled, visible Approve; attributes too, since `disabled` may lift last.
    const observer = new MutationObserver(() => {
      if (card.actionableAt !== undefined || !actionable()) return;
      observer.disconnect();
      card.actionableAt = now();
      const button = [...document.querySelectorAll<HTMLButtonElement>(selector)].find((b) => b.textContent?.trim() === 'Approve');
      button?.setAttribute('elementtiming', 'bench-latency-approve');
      new PerformanceObserver((list, self) => {
        const entry = list.getEntries().find((e) => e.name === 'text-paint' && (e as PerformanceEntry & { identifier?: string }).identifier === 'bench-latency-approve') as
          | (PerformanceEntry & { renderTime: number })
          | undefined;
        if (!entry || !entry.renderTime) return;
        self.disconnect();
        card.presentedAt = performance.timeOrigin + entry.renderTime;
      }).observe({ type: 'element', buffered: true });
      // rAF runs just before the frame is produced; a message posted from it is handled after.
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => (card.paintedAt = now());
        channel.port2.postMessage(null);
      });
    });
    observer.observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['disabled', 'hidden', 'class', 'style'] });
  }

  // The app makes its worker at start (main.ts). Watching it needs the Worker constructor wrapped;
  // probing it (cold start) also posts one harmless intent the moment it exists.
  const NativeWorker = window.Worker;
  window.Worker = class WatchedWorker extends NativeWorker {
    constructor(url: string | URL, options?: WorkerOptions) {
      super(url, options);
      if (marks.worker.createdAt !== undefined) return;
      marks.worker.createdAt = now();
      this.addEventListener('message', (event: MessageEvent<unknown>) => {
        const data = event.data as { type?: unknown; id?: unknown; value?: unknown } | null;
        if (data?.type === 'ready' && marks.worker.readyAt === undefined) marks.worker.readyAt = now();
        if (data?.id === -15 && marks.worker.answeredAt === undefined) {
          marks.worker.answeredAt = now();
          marks.worker.answer = data.value;
        }
      });
      // A decision on a card that does not exist: the worker parses it, reads the device id and
      // runs the compare-and-set's transaction, finds nothing and answers `not_found`. It is the
      // path an Approve pressed right after opening takes, and it writes nothing.
      if (probeWorker) this.postMessage({ id: -15, intent: { type: 'decide', pausePointId: 'bench-latency-probe', decision: { type: 'approve', viewHash: '0'.repeat(64) } } });
    }
  };
}
