import type { Browser, Page } from '@playwright/test';

export interface TraceEvent {
  name: string;
  cat?: string;
  ph: string;
  pid: number;
  tid: number;
  /** µs on the trace's clock. */
  ts: number;
  dur?: number;
  /** Thread CPU time, µs. */
  tdur?: number;
  args?: Record<string, unknown> & { name?: string; data?: Record<string, unknown> };
}

export interface ThreadTime {
  /** Wall time the thread's top-level tasks took inside the window. */
  wallMs: number;
  /** CPU time they actually ran on a core; on a busy machine the rest of their wall time was a wait for one. */
  cpuMs: number;
}

/** The page's main thread and its dedicated workers' threads, inside one window of time. */
export interface WindowTime {
  page: ThreadTime;
  worker: ThreadTime;
}

const TASK = 'ThreadControllerImpl::RunTask';

/**
 * A Chrome trace of top-level tasks (`toplevel`, cheap enough to keep on
 * while timing) with the pages' user-timing marks. Each task carries its wall
 * time and its thread CPU time, which tells what the app spent from what the
 * machine made it wait; the marks of page-probes.ts place each page's epoch
 * clock on the trace's.
 */
export class ChromeTrace {
  readonly events: readonly TraceEvent[];
  readonly #threadNames = new Map<string, string>();

  constructor(events: readonly TraceEvent[]) {
    this.events = events;
    for (const e of events) {
      if (e.ph === 'M' && e.name === 'thread_name' && typeof e.args?.name === 'string') this.#threadNames.set(`${e.pid}:${e.tid}`, e.args.name);
    }
  }

  static async record(browser: Browser, page: Page, categories: readonly string[] = ['toplevel', 'blink.user_timing']): Promise<() => Promise<ChromeTrace>> {
    await browser.startTracing(page, { categories: [...categories] });
    return async () => {
      const parsed = JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents?: TraceEvent[] } | TraceEvent[];
      return new ChromeTrace(Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []));
    };
  }

  threadName(pid: number, tid: number): string | undefined {
    return this.#threadNames.get(`${pid}:${tid}`);
  }

  /** Where the page that made the mark `name` (at epoch `at`) lives on the trace, and how to turn its epoch times into trace µs. */
  locate(mark: { name: string; at: number }): { pid: number; tid: number; toTraceUs: (epochMs: number) => number } {
    const found = this.events.find((e) => e.name === mark.name);
    if (!found) throw new Error(`The trace holds no mark "${mark.name}"`);
    return { pid: found.pid, tid: found.tid, toTraceUs: (epochMs) => found.ts + (epochMs - mark.at) * 1000 };
  }

  /** Wall and CPU time of the page's main thread and of its renderer's dedicated workers between two epoch times. */
  timeBetween(mark: { name: string; at: number }, fromEpochMs: number, toEpochMs: number): WindowTime {
    const { pid, tid, toTraceUs } = this.locate(mark);
    const from = toTraceUs(fromEpochMs);
    const to = toTraceUs(toEpochMs);
    const page: ThreadTime = { wallMs: 0, cpuMs: 0 };
    const worker: ThreadTime = { wallMs: 0, cpuMs: 0 };
    for (const e of this.events) {
      if (e.ph !== 'X' || e.name !== TASK || e.pid !== pid || !e.dur) continue;
      const overlap = Math.min(e.ts + e.dur, to) - Math.max(e.ts, from);
      if (overlap <= 0) continue;
      const into = e.tid === tid ? page : this.threadName(e.pid, e.tid) === 'DedicatedWorker thread' ? worker : undefined;
      if (!into) continue;
      // A task cut by the window counts in proportion: its CPU time is spread over its wall time.
      into.wallMs += overlap / 1000;
      into.cpuMs += ((e.tdur ?? 0) * (overlap / e.dur)) / 1000;
    }
    return { page, worker };
  }
}
