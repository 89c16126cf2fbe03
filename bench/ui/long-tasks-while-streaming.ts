import type { BrowserContext } from '@playwright/test';
import type { FakeLlm } from '../../tests/fake-llm/index.ts';
import { saveProfile, startProfile, summarize, type Profile, type ProfileSummary } from './cpu-profile.ts';
import { ANSWER_END } from './long-answer.ts';
import { startTrace, tasksBetween } from './main-thread-trace.ts';

declare global {
  interface Window {
    __benchLongTasks?: { startTime: number; duration: number }[];
  }
}

export interface StreamRun {
  /** Send clicked → the whole answer rendered and the status bar back to Ready. */
  streamMs: number;
  /** Main-thread tasks over 50 ms that started in that window (the long-task API), with the CPU time the trace saw in each. */
  longTasks: { startTime: number; duration: number; cpuMs: number | null }[];
  /** page time of the Send click */
  sentAt: number;
  /** Every main-thread task of the same window, from a Chrome trace: the longest CPU time one took, how many took over 50 ms of it, the CPU time of all. */
  trace: { tasks: number; maxCpuMs: number; cpuOver50: number; cpuTotalMs: number; heaviest: { afterSendMs: number; cpuMs: number; wallMs: number }[] };
  /** Only when profiling was asked for: the whole stream, and only the samples inside long tasks. */
  profile?: { whole: ProfileSummary; inHeaviestTasks: ProfileSummary };
}

export interface StreamOptions {
  answer: string;
  chunkSize: number;
  chunkDelayMs: number;
  /** Write the page's CPU profile here (a .cpuprofile file) and summarise it with `resolve`. */
  profile?: { path: string; resolve: Parameters<typeof summarize>[1]['resolve'] };
}

/** Runs in the page before its scripts: every long task from the start, kept for the bench to read. */
function recordLongTasks(): void {
  const tasks: { startTime: number; duration: number }[] = [];
  window.__benchLongTasks = tasks;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) tasks.push({ startTime: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
}

/**
 * Sends a message in a new chat as a person would (textbox "Message", button
 * "Send") and records the page's long tasks until the answer has streamed in
 * and the conversation is Ready again. The profile's settings must already
 * point at `llm`.
 */
export async function longTasksWhileStreaming(context: BrowserContext, llm: FakeLlm, options: StreamOptions): Promise<StreamRun> {
  const page = await context.newPage();
  try {
    await page.addInitScript(recordLongTasks);
    await page.goto('/#/new');
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.waitFor({ timeout: 30_000 });
    llm.enqueue({ content: options.answer, chunkSize: options.chunkSize, chunkDelayMs: options.chunkDelayMs });
    await box.fill('Write the whole migration plan for the billing database, in detail.');
    // Let the page settle after loading, so start-up work is not counted as streaming.
    await page.waitForTimeout(500);

    const browser = context.browser();
    if (!browser) throw new Error('The context has no browser to trace');
    const stopTrace = await startTrace(browser, page);
    const profiling = options.profile ? await startProfile(page) : undefined;
    const from = await page.evaluate(() => performance.mark('bench-send').startTime);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    // Polled with a cheap check four times a second: Playwright's text and role
    // locators would walk the growing DOM on the main thread being measured.
    const finished = await page.waitForFunction(
      (end) => {
        const ready = [...document.querySelectorAll('[role="status"]')].some((el) => el.textContent?.trim() === 'Ready');
        return ready && (document.querySelector('main')?.textContent ?? '').includes(end) ? performance.mark('bench-ready').startTime : false;
      },
      ANSWER_END,
      { polling: 250, timeout: 180_000 },
    );
    const to = (await finished.jsonValue()) as number;
    const profile: Profile | undefined = await profiling?.stop();
    const threadOf = await stopTrace();
    // Untimed, after the window: the answer is on screen as a person would find it.
    await page.getByText(ANSWER_END).waitFor({ timeout: 5_000 });
    const sent = threadOf('bench-send');
    const tasks = tasksBetween(sent, sent.markTs, threadOf('bench-ready').markTs);
    const trace = {
      tasks: tasks.length,
      maxCpuMs: Math.max(0, ...tasks.map((t) => t.cpuMs)),
      cpuOver50: tasks.filter((t) => t.cpuMs > 50).length,
      cpuTotalMs: tasks.reduce((sum, t) => sum + t.cpuMs, 0),
      heaviest: [...tasks]
        .sort((a, b) => b.cpuMs - a.cpuMs)
        .slice(0, 5)
        .map((t) => ({ afterSendMs: (t.ts - sent.markTs) / 1000, cpuMs: t.cpuMs, wallMs: t.wallMs })),
    };

    const all = await page.evaluate(() => window.__benchLongTasks ?? []);
    // A long task is the longest traced task that started at the same moment (page time → trace clock through the Send mark).
    const traced = (startTime: number) =>
      tasks
        .filter((t) => Math.abs(t.ts - (sent.markTs + (startTime - from) * 1000)) < 5_000)
        .reduce<(typeof tasks)[number] | undefined>((best, t) => (best && best.wallMs >= t.wallMs ? best : t), undefined);
    const longTasks = all
      .filter((t) => t.startTime >= from && t.startTime <= to)
      .map((t) => ({ ...t, cpuMs: traced(t.startTime)?.cpuMs ?? null }));
    const measured = { streamMs: to - from, longTasks, sentAt: from, trace };
    if (!profile || !profiling || !options.profile) return measured;
    saveProfile(options.profile.path, profile);
    const { resolve } = options.profile;
    // The heaviest traced tasks, moved from the trace's clock to the profile's (both through page time).
    const windows = trace.heaviest.map((t) => {
      const start = from + t.afterSendMs - profiling.pageNowAtStart;
      return [start, start + t.wallMs] as const;
    });
    return {
      ...measured,
      profile: { whole: summarize(profile, { resolve }), inHeaviestTasks: summarize(profile, { resolve, windows }) },
    };
  } finally {
    await page.close();
  }
}
