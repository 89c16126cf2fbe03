import { writeFile } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from '@playwright/test';

/**
 * One JavaScript isolate's heap, read through the Chrome DevTools Protocol:
 * `Runtime.getHeapUsage`'s `usedSize` plus its `backingStorageSize` (array
 * buffers' contents and external strings, which a fetch body or a decrypted
 * envelope lives in, outside the V8 heap proper), and a full GC on demand
 * (`HeapProfiler.collectGarbage`).
 */
export interface HeapProbe {
  readonly name: string;
  used(): Promise<number>;
  collectGarbage(): Promise<void>;
  /** Writes a `.heapsnapshot` (open it in DevTools › Memory) to `path`. */
  snapshot(path: string): Promise<void>;
  /** Starts V8's sampling CPU profiler; the returned stop writes a `.cpuprofile` (DevTools › Performance) to `path`. */
  profile(): Promise<(path: string) => Promise<void>>;
  close(): Promise<void>;
}

interface HeapUsage {
  usedSize: number;
  backingStorageSize?: number;
}

const usedOf = (usage: HeapUsage) => usage.usedSize + (usage.backingStorageSize ?? 0);

/** The page's own isolate: Playwright's page session. */
export async function pageHeapProbe(context: BrowserContext, page: Page): Promise<HeapProbe> {
  const session = await context.newCDPSession(page);
  const probe = probeOver('page', (method, params) => session.send(method as 'Runtime.getHeapUsage', params), () => session.detach());
  session.on('HeapProfiler.addHeapSnapshotChunk', ({ chunk }) => probe.chunk(chunk));
  return probe;
}

/**
 * A dedicated worker's isolate. Playwright's CDPSession cannot address a
 * flat child session (it has no `sessionId` to send with), so this attaches
 * to the worker's target from a browser session in the older, nested mode
 * (`flatten: false`) and speaks to it through `Target.sendMessageToTarget`,
 * its answers coming back as `Target.receivedMessageFromTarget`.
 * `script` is part of the worker script's URL (the app names each worker
 * after its tab's id, which a bench does not know); exactly one such worker
 * must be running in the browser.
 */
export async function workerHeapProbe(browser: Browser, script: string): Promise<HeapProbe> {
  const session = await browser.newBrowserCDPSession();
  const { targetInfos } = (await session.send('Target.getTargets')) as { targetInfos: { targetId: string; type: string; title: string; url: string }[] };
  const workers = targetInfos.filter((t) => t.type === 'worker' && t.url.includes(script));
  if (workers.length !== 1) {
    await session.detach();
    throw new Error(`expected one worker running ${script}, found ${workers.length} (${targetInfos.map((t) => `${t.type} ${t.url}`).join(', ')})`);
  }
  const { sessionId } = (await session.send('Target.attachToTarget', { targetId: workers[0]!.targetId, flatten: false })) as { sessionId: string };
  let nextId = 0;
  const answers = new Map<number, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();
  session.on('Target.receivedMessageFromTarget', (event: { sessionId: string; message: string }) => {
    if (event.sessionId !== sessionId) return;
    const message = JSON.parse(event.message) as { id?: number; result?: unknown; error?: { message: string }; method?: string; params?: { chunk?: string } };
    if (message.id === undefined) return void (message.method === 'HeapProfiler.addHeapSnapshotChunk' && probe.chunk(message.params?.chunk ?? ''));
    const answer = answers.get(message.id);
    answers.delete(message.id);
    if (message.error) answer?.reject(new Error(`worker ${script}: ${message.error.message}`));
    else answer?.resolve(message.result);
  });
  const send = (method: string, params: object = {}) =>
    new Promise<unknown>((resolve, reject) => {
      const id = ++nextId;
      answers.set(id, { resolve, reject });
      session.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) }).catch(reject);
    });
  const probe = probeOver(`worker ${script}`, send, () => session.detach());
  return probe;
}

type Send = (method: string, params?: object) => Promise<unknown>;

/** A probe over `send`; `chunk` takes the pieces of a heap snapshot as its session's events bring them. */
function probeOver(name: string, send: Send, close: () => Promise<void>): HeapProbe & { chunk(piece: string): void } {
  let chunks: string[] | null = null;
  return {
    name,
    used: async () => usedOf((await send('Runtime.getHeapUsage')) as HeapUsage),
    collectGarbage: async () => void (await send('HeapProfiler.collectGarbage')),
    async snapshot(path) {
      chunks = [];
      await send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
      await writeFile(path, chunks.join(''));
      chunks = null;
    },
    async profile() {
      await send('Profiler.enable');
      await send('Profiler.setSamplingInterval', { interval: 200 });
      await send('Profiler.start');
      return async (path) => {
        const { profile } = (await send('Profiler.stop')) as { profile: unknown };
        await writeFile(path, JSON.stringify(profile));
      };
    },
    chunk: (piece) => void chunks?.push(piece),
    close,
  };
}

/** The highest `used()` of each probe, sampled every `everyMs` until `stop()`. */
export function sampleHeaps(probes: readonly HeapProbe[], everyMs = 100): { stop(): Promise<number[]> } {
  const peaks = probes.map(() => 0);
  let running = true;
  const loop = (async () => {
    while (running) {
      const at = Date.now();
      const used = await Promise.all(probes.map((p) => p.used()));
      used.forEach((u, i) => (peaks[i] = Math.max(peaks[i]!, u)));
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, everyMs - (Date.now() - at))));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return peaks;
    },
  };
}
