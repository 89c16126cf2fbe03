import type { Browser, Page } from '@playwright/test';

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  /** µs, the trace's own clock. */
  ts: number;
  dur?: number;
  tdur?: number;
}

export interface TracedTask {
  /** µs, the trace's clock. */
  ts: number;
  /** Wall time, as the long-task API counts it. */
  wallMs: number;
  /** Time the thread actually ran on a CPU; the rest it waited for one. */
  cpuMs: number;
}

/** The top-level tasks of the page thread that made the user-timing mark `name`, and the mark's time on the trace's clock. */
export interface MainThread {
  markTs: number;
  tasks: TracedTask[];
}

/**
 * A Chrome trace of top-level tasks (category `toplevel`, cheap) with the
 * page's `performance.mark`s, to tell what the app costs from what the
 * machine costs: each task carries its wall time (`dur`) and its thread CPU
 * time (`tdur`). On a busy machine the renderer waits for a core in the middle
 * of its work, and wall-clock figures — the long-task API's 50 ms included —
 * grow with the load, not with the app.
 */
export async function startTrace(browser: Browser, page: Page): Promise<() => Promise<(mark: string) => MainThread>> {
  await browser.startTracing(page, { categories: ['toplevel', 'blink.user_timing'] });
  return async () => {
    const buffer = await browser.stopTracing();
    const parsed = JSON.parse(buffer.toString('utf8')) as { traceEvents?: TraceEvent[] } | TraceEvent[];
    const events = Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []);
    return (mark) => {
      const found = events.find((e) => e.name === mark);
      if (!found) throw new Error(`The trace holds no mark "${mark}"`);
      const tasks = events
        .filter((e) => e.ph === 'X' && e.name === 'ThreadControllerImpl::RunTask' && e.pid === found.pid && e.tid === found.tid)
        .map((e) => ({ ts: e.ts, wallMs: (e.dur ?? 0) / 1000, cpuMs: (e.tdur ?? 0) / 1000 }));
      return { markTs: found.ts, tasks };
    };
  };
}

/** Tasks that started within [fromTs, toTs] (µs). */
export function tasksBetween(thread: MainThread, fromTs: number, toTs: number): TracedTask[] {
  return thread.tasks.filter((t) => t.ts >= fromTs && t.ts <= toTs);
}
