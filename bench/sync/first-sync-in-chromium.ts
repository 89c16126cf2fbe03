import { join } from 'node:path';
import { newProfile } from '../ui/browser.ts';
import { fillJoin, type ChromiumApp } from './chromium-app.ts';
import { pageHeapProbe, sampleHeaps, workerHeapProbe, type HeapProbe } from './cdp-heap.ts';
import type { SeededDevice } from './seeded-device.ts';

/** One isolate's heap over the first sync, in bytes (used JS heap + array buffers' backing stores). */
export interface HeapFigures {
  /** After a full GC, just before Join. */
  before: number;
  /** The highest sample while syncing (every `SAMPLE_MS`), garbage included. */
  peak: number;
  /** After a full GC once the status line said `Up to date`. */
  retained: number;
}

/**
 * Where the new device's person looks while it syncs. `devices`: they open
 * Settings › Devices after Join, and the time ends at the first frame of its
 * status line saying `Up to date`, the only place the app says the whole
 * history is here. `landing`: they stay on the view Join leaves them on, and
 * the time ends when the same status is stored (read from the profile's
 * IndexedDB every 100 ms: no other view shows it). The two differ by what
 * the page's own live queries cost meanwhile (Settings' Usage totals re-read
 * this month's messages whenever messages change).
 */
export type Watching = 'devices' | 'landing';

export interface FirstSyncFigures {
  watching: Watching;
  /** Join pressed → up to date, as `watching` says. */
  seconds: number;
  worker: HeapFigures;
  page: HeapFigures;
  /** What the new profile's IndexedDB holds at the end: the check that `Up to date` meant the whole history. */
  conversations: number;
  messages: number;
}

const SAMPLE_MS = 100;
const TIMEOUT_MS = 600_000;

async function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`Timed out after ${ms} ms waiting for ${what}`)), ms)));
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Stamps (epoch ms, one clock with the bench) the press of Join and the
 * frame in which a status line first says `Up to date` after it: the signal
 * the app shows once the replicator's catch-up has applied its last page.
 */
function stampJoinToUpToDate(): void {
  const w = window as unknown as { __joinedAt?: number; __upToDateAt?: number };
  const now = () => performance.timeOrigin + performance.now();
  addEventListener(
    'click',
    (event) => {
      if (w.__joinedAt === undefined && event.target instanceof Element && event.target.closest('button')?.textContent?.trim() === 'Join') w.__joinedAt = performance.timeOrigin + event.timeStamp;
    },
    { capture: true },
  );
  new MutationObserver(() => {
    if (w.__joinedAt === undefined || w.__upToDateAt !== undefined) return;
    if (![...document.querySelectorAll('[role="status"]')].some((s) => s.textContent?.startsWith('Up to date'))) return;
    w.__upToDateAt = -1;
    requestAnimationFrame(() => setTimeout(() => (w.__upToDateAt = now())));
  }).observe(document, { subtree: true, childList: true, characterData: true });
}

/** The new profile's record counts, read from its IndexedDB directly (the app's database is `pausepoint`). */
function countRecords(): Promise<{ conversations: number; messages: number }> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open('pausepoint');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result;
      const tx = db.transaction(['conversations', 'messages'], 'readonly');
      const conversations = tx.objectStore('conversations').count();
      const messages = tx.objectStore('messages').count();
      tx.oncomplete = () => {
        db.close();
        resolve({ conversations: conversations.result, messages: messages.result });
      };
      tx.onerror = () => reject(tx.error);
    };
  });
}

/** Resolves once the sync status row says `up_to_date`, stamping when it was read so. */
function untilUpToDateStored(): Promise<void> {
  return new Promise((resolve, reject) => {
    const poll = () => {
      const open = indexedDB.open('pausepoint');
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const db = open.result;
        const read = db.transaction('settings', 'readonly').objectStore('settings').get('syncStatus');
        read.onerror = () => reject(read.error);
        read.onsuccess = () => {
          db.close();
          if ((read.result as { value?: { kind?: unknown } } | undefined)?.value?.kind !== 'up_to_date') return void setTimeout(poll, 100);
          (window as unknown as { __upToDateAt?: number }).__upToDateAt = performance.timeOrigin + performance.now();
          resolve();
        };
      };
    };
    poll();
  });
}

async function collected(probe: HeapProbe): Promise<number> {
  // Twice: a first full GC can leave what only weak callbacks or finalizers let go.
  await probe.collectGarbage();
  await probe.collectGarbage();
  return probe.used();
}

/**
 * bench:sync's first sync in Chromium: a fresh profile (a new device, no model
 * set up) opens a pairing link from `seeded`, joins through the Join dialog,
 * and waits until it is up to date, as `watching` says. The heaps of the
 * agent worker (where the replicator runs) and of the page are read over CDP.
 * `snapshotDir`: also writes each isolate's CPU profile of the sync and its
 * heap snapshot at the end.
 */
export async function firstSyncInChromium(app: ChromiumApp, seeded: SeededDevice, watching: Watching, snapshotDir?: string): Promise<FirstSyncFigures> {
  const context = await newProfile(app.browser, app.origin);
  const probes: HeapProbe[] = [];
  try {
    await context.addInitScript(stampJoinToUpToDate);
    const page = await context.newPage();
    const invite = await seeded.device.sync.addDevice();
    // The Node device's links name its own origin: the fragment is the invitation.
    const joinDialog = await fillJoin(page, `${app.origin}/${new URL(invite.link).hash}`, invite.code, 'New phone');
    const worker = await workerHeapProbe(app.browser, 'agent.worker');
    probes.push(worker);
    const pageProbe = await pageHeapProbe(context, page);
    probes.push(pageProbe);
    const before = { worker: await collected(worker), page: await collected(pageProbe) };
    const profiling = snapshotDir ? await Promise.all([worker.profile(), pageProbe.profile()]) : undefined;
    const sampler = sampleHeaps([worker, pageProbe], SAMPLE_MS);
    let peaks: number[];
    try {
      await joinDialog.getByRole('button', { name: 'Join' }).click();
      await joinDialog.waitFor({ state: 'hidden', timeout: 60_000 });
      if (watching === 'devices') {
        await page.getByRole('link', { name: 'Settings' }).click();
        await page.getByRole('region', { name: 'Devices' }).waitFor();
        await page.waitForFunction(() => ((window as unknown as { __upToDateAt?: number }).__upToDateAt ?? 0) > 0, undefined, { timeout: TIMEOUT_MS, polling: 100 });
      } else {
        await withTimeout(page.evaluate(untilUpToDateStored), TIMEOUT_MS, 'the first sync to be up to date');
      }
    } finally {
      peaks = await sampler.stop();
    }
    const { joinedAt, upToDateAt } = await page.evaluate(() => {
      const w = window as unknown as { __joinedAt: number; __upToDateAt: number };
      return { joinedAt: w.__joinedAt, upToDateAt: w.__upToDateAt };
    });
    if (profiling && snapshotDir) {
      await profiling[0](join(snapshotDir, `first-sync-${watching}-worker.cpuprofile`));
      await profiling[1](join(snapshotDir, `first-sync-${watching}-page.cpuprofile`));
    }
    const counts = await page.evaluate(countRecords);
    const retained = { worker: await collected(worker), page: await collected(pageProbe) };
    if (snapshotDir) {
      await worker.snapshot(join(snapshotDir, `first-sync-${watching}-worker.heapsnapshot`));
      await pageProbe.snapshot(join(snapshotDir, `first-sync-${watching}-page.heapsnapshot`));
    }
    return {
      watching,
      seconds: (upToDateAt - joinedAt) / 1000,
      worker: { before: before.worker, peak: Math.max(peaks[0]!, retained.worker), retained: retained.worker },
      page: { before: before.page, peak: Math.max(peaks[1]!, retained.page), retained: retained.page },
      ...counts,
    };
  } finally {
    for (const probe of probes) await probe.close().catch((error: unknown) => console.warn(`bench:sync: detaching from the ${probe.name} failed`, error));
    await context.close();
  }
}
