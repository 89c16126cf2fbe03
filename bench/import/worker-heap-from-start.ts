import type { BrowserContext, Page } from '@playwright/test';

interface HeapUsage {
  usedSize: number;
  backingStorageSize?: number;
}

export interface WorkerHeapFromStart {
  /** Resolves once the worker has started: its heap then, before any of its script ran. */
  readonly started: Promise<number>;
  /** Stops sampling; the highest heap seen. */
  stop(): Promise<number>;
}

/**
 * The heap of the dedicated worker whose script URL contains `script`, from
 * its very start: the page's DevTools session auto-attaches to its workers
 * with `waitForDebuggerOnStart`, so the worker is held before its first line
 * runs, its heap read, and only then let go; after that it is sampled every
 * `everyMs` (`Runtime.getHeapUsage`: the V8 heap plus array buffers' and
 * external strings' backing store, where file chunks live). The older nested
 * mode (`flatten: false`, messages through `Target.sendMessageToTarget`),
 * since Playwright's CDPSession cannot address a flat child session.
 */
export async function workerHeapFromStart(context: BrowserContext, page: Page, script: string, everyMs = 100): Promise<WorkerHeapFromStart> {
  const session = await context.newCDPSession(page);
  let nextId = 0;
  const answers = new Map<number, (result: unknown) => void>();
  session.on('Target.receivedMessageFromTarget', (event: { sessionId: string; message: string }) => {
    const message = JSON.parse(event.message) as { id?: number; result?: unknown };
    if (message.id === undefined) return;
    answers.get(message.id)?.(message.result);
    answers.delete(message.id);
  });
  const send = (sessionId: string, method: string) =>
    new Promise<unknown>((resolve, reject) => {
      const id = ++nextId;
      answers.set(id, resolve);
      session.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method }) }).catch(reject);
    });
  const used = async (sessionId: string) => {
    const usage = (await send(sessionId, 'Runtime.getHeapUsage')) as HeapUsage;
    return usage.usedSize + (usage.backingStorageSize ?? 0);
  };

  let peak = 0;
  let sampling = true;
  let loop: Promise<void> = Promise.resolve();
  let markStarted: (bytes: number) => void = () => undefined;
  const started = new Promise<number>((resolve) => (markStarted = resolve));
  session.on('Target.attachedToTarget', (event: { sessionId: string; targetInfo: { type: string; url: string }; waitingForDebugger: boolean }) => {
    const { sessionId, targetInfo } = event;
    const resume = () => send(sessionId, 'Runtime.runIfWaitingForDebugger');
    if (targetInfo.type !== 'worker' || !targetInfo.url.includes(script)) return void resume();
    void (async () => {
      const atStart = await used(sessionId);
      peak = atStart;
      markStarted(atStart);
      await resume();
      loop = (async () => {
        // Until stopped, or until the worker ends with its import (its session then goes, and a read fails).
        while (sampling) {
          const now = await Promise.race([used(sessionId), new Promise<number>((r) => setTimeout(() => r(0), 2_000))]).catch(() => null);
          if (now === null) break;
          peak = Math.max(peak, now);
          await new Promise((resolve) => setTimeout(resolve, everyMs));
        }
      })();
    })();
  });
  await session.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: false });
  return {
    started,
    async stop() {
      sampling = false;
      await loop;
      await session.detach().catch(() => undefined);
      return peak;
    },
  };
}
