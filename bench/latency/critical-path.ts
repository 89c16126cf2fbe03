import type { ChromeTrace, TraceEvent } from './chrome-trace.ts';
import type { PressToRequest } from './round-trip.ts';

/** The categories the breakdown needs, on top of top-level tasks: costlier, so only in diagnosis runs. */
export const CRITICAL_PATH_CATEGORIES = ['toplevel', 'blink.user_timing', 'devtools.timeline', 'IndexedDB'] as const;

/** One segment of the path from a press to its request, in order. */
export interface Segment {
  name: string;
  wallMs: number;
  /** CPU time of the thread the segment runs on, where one thread does the work. */
  cpuMs?: number;
}

export interface CriticalPath {
  segments: Segment[];
  /** IndexedDB transactions the worker began between taking the intent and sending the request. */
  workerTransactions: number;
  /** Time the service worker's thread ran tasks between the request leaving the worker and arriving (its fetch event). */
  serviceWorkerMs: number;
}

const TASK = 'ThreadControllerImpl::RunTask';

/**
 * Splits one press → request window into what a Chrome trace (with
 * devtools.timeline and IndexedDB) can tell apart:
 *   - input delay: the click's timestamp → the page's first listener;
 *   - page → worker: that listener → the worker starting the task that received the intent (the page's
 *     handler up to postMessage, and the hop);
 *   - the intent's task in the worker (zod parse of the message, the intent's synchronous start);
 *   - storage and locks: from that task's end to the start of the task that sends the request — the worker's
 *     IndexedDB transactions and Web Lock hand-offs, with the worker's CPU time between them;
 *   - the sending task up to `fetch` issuing the request (settings read back, the model client, the body);
 *   - network: the request leaving the worker → its head at the server (the service worker's fetch event,
 *     the network service, loopback).
 */
export function criticalPath(trace: ChromeTrace, p: PressToRequest): CriticalPath {
  const { pid, toTraceUs } = trace.locate(p.clockMark);
  const pressUs = toTraceUs(p.press.at);
  const seenUs = toTraceUs(p.press.seenAt);
  const arrivedUs = toTraceUs(p.request.receivedAt);
  const inWindow = (e: TraceEvent) => e.pid === pid && e.ts >= pressUs - 1_000 && e.ts <= arrivedUs;
  const events = trace.events.filter(inWindow);
  const isWorker = (e: TraceEvent) => trace.threadName(e.pid, e.tid) === 'DedicatedWorker thread';

  const sent = events.find((e) => e.name === 'ResourceSendRequest' && isWorker(e) && String(e.args?.data?.url ?? '').includes('/chat/completions'));
  if (!sent) throw new Error('The trace holds no chat request leaving the worker in this window');
  const workerTasks = events.filter((e) => e.ph === 'X' && e.name === TASK && e.tid === sent.tid).sort((a, b) => a.ts - b.ts);
  const within = (outer: TraceEvent, inner: TraceEvent) => inner.tid === outer.tid && inner.ts >= outer.ts && inner.ts <= outer.ts + (outer.dur ?? 0);
  const intentTask = workerTasks.find((t) => t.ts >= seenUs - 1_000 && events.some((e) => e.name === 'HandlePostMessage' && within(t, e)));
  const sendingTask = workerTasks.find((t) => within(t, sent));
  if (!intentTask || !sendingTask) throw new Error('The trace does not show the worker taking the intent and sending the request');
  const intentEnd = intentTask.ts + (intentTask.dur ?? 0);
  const between = workerTasks.filter((t) => t.ts >= intentEnd && t.ts < sendingTask.ts);
  const cpu = (tasks: readonly TraceEvent[]) => tasks.reduce((sum, t) => sum + (t.tdur ?? 0), 0) / 1000;
  // The sending task's CPU up to the send, in proportion to its wall time.
  const sendingWall = (sent.ts - sendingTask.ts) / 1000;
  const sendingCpu = ((sendingTask.tdur ?? 0) / 1000) * (sendingWall / Math.max((sendingTask.dur ?? 0) / 1000, 1e-6));
  const serviceWorkerMs =
    trace.events
      .filter((e) => e.pid === pid && e.ph === 'X' && e.name === TASK && trace.threadName(e.pid, e.tid) === 'ServiceWorker thread')
      .filter((e) => e.ts + (e.dur ?? 0) > sent.ts && e.ts < arrivedUs)
      .reduce((sum, e) => sum + Math.min(e.ts + (e.dur ?? 0), arrivedUs) - Math.max(e.ts, sent.ts), 0) / 1000;

  return {
    segments: [
      { name: 'input delay (click → first listener)', wallMs: (seenUs - pressUs) / 1000 },
      { name: 'page → worker (handler, postMessage)', wallMs: (intentTask.ts - seenUs) / 1000 },
      { name: "worker: the intent's task (parse, start)", wallMs: (intentTask.dur ?? 0) / 1000, cpuMs: (intentTask.tdur ?? 0) / 1000 },
      { name: 'worker: IndexedDB and locks', wallMs: (sendingTask.ts - intentEnd) / 1000, cpuMs: cpu(between) },
      { name: 'worker: settings, client, body → fetch', wallMs: sendingWall, cpuMs: sendingCpu },
      { name: 'network (service worker, loopback)', wallMs: (arrivedUs - sent.ts) / 1000 },
    ],
    workerTransactions: events.filter((e) => e.name === 'IDBDatabase::transaction' && e.tid === sent.tid && e.ts >= intentTask.ts && e.ts <= sent.ts).length,
    serviceWorkerMs,
  };
}
