import type { BundleSizes } from './bundle-sizes.ts';
import type { StreamRun } from './long-tasks-while-streaming.ts';
import { kB, median, medianMin, ms, times, type ReportRow } from './print-report.ts';
import type { CardTiming } from './time-to-card.ts';

export const TARGETS = {
  /** Big-database time to the first pending card, as a multiple of the empty database's. */
  cardRatio: 1.5,
  longTaskMs: 50,
  pageJsBytes: 75_000,
  /** Cold open on a conversation with a pending card, big database: navigation → the card painted (issue 35). */
  coldOpenMs: 300,
} as const;

export interface CardResults {
  /** `blank`: the control, a page that is only a card (blank-page.ts). */
  route: 'inbox' | 'conversation' | 'blank';
  /** Which database: `empty`, `big`, and controls (`long`, and in diagnostics `20cards`, `1000conv`). */
  db: string;
  timings: CardTiming[];
}

export interface Report {
  rows: ReportRow[];
  detail: string[];
}

const painted = (list: readonly CardTiming[]) => list.map((t) => t.paintedMs);
const cpu = (list: readonly CardTiming[]) => list.map((t) => t.cpuMs);
const ratioOfMedians = (a: readonly number[], b: readonly number[]) => median(a) / median(b);

export function cardReport(results: readonly CardResults[]): Report {
  const rows: ReportRow[] = [];
  const of = (route: string, db: string) => results.find((r) => r.route === route && r.db === db)?.timings;
  for (const route of ['inbox', 'conversation'] as const) {
    const where = route === 'inbox' ? '#/approvals' : '#/c/<id>';
    const empty = of(route, 'empty');
    const big = of(route, 'big');
    if (!empty || !big) continue;
    const ratio = ratioOfMedians(painted(big), painted(empty));
    rows.push({
      measure: `pending card visible, ${where}`,
      figures:
        `empty DB ${medianMin(painted(empty))}; big DB ${medianMin(painted(big))}; ` +
        `ratio ${times(ratio)} (of the mins ${times(Math.min(...painted(big)) / Math.min(...painted(empty)))})`,
      target: `big ≤ ${TARGETS.cardRatio}× empty`,
      pass: ratio <= TARGETS.cardRatio,
    });
    rows.push({
      measure: '  main-thread CPU until then',
      figures: `empty DB ${medianMin(cpu(empty))}; big DB ${medianMin(cpu(big))}; ratio ${times(ratioOfMedians(cpu(big), cpu(empty)))}`,
      target: '(information)',
    });
    const long = of(route, 'long');
    if (long) {
      rows.push({
        measure: '  control: its 100 messages alone',
        figures: `1-conversation DB ${medianMin(painted(long))}, CPU ${medianMin(cpu(long))}; big DB / this ${times(ratioOfMedians(painted(big), painted(long)))}`,
        target: '(control)',
      });
    }
  }
  const bigConversation = of('conversation', 'big');
  if (bigConversation) {
    rows.push({
      measure: 'cold open #/c/<id>, big DB',
      figures: medianMin(painted(bigConversation)),
      target: `≤ ${TARGETS.coldOpenMs} ms`,
      pass: median(painted(bigConversation)) <= TARGETS.coldOpenMs,
    });
  }
  const blank = of('blank', 'none');
  if (blank) rows.push({ measure: '  control: a page that is only a card', figures: `${medianMin(painted(blank))}: the browser's share`, target: '(control)' });
  const width = Math.max(...results.map((r) => r.db.length));
  const detail = results.map(
    ({ route, db, timings }) =>
      `  ${route.padEnd(12)} ${db.padEnd(width)}  in DOM ${medianMin(timings.map((t) => t.inDomMs))}, painted ${medianMin(painted(timings))}, ` +
      `main-thread CPU ${medianMin(cpu(timings))}, Playwright wall ${medianMin(timings.map((t) => t.wallMs))}; ` +
      `runs (painted): ${painted(timings).map((v) => Math.round(v)).join(', ')}`,
  );
  return { rows, detail };
}

export function streamReport(streams: readonly { db: string; run: StreamRun }[]): Report {
  const rows: ReportRow[] = [];
  const detail: string[] = [];
  for (const { db, run } of streams) {
    const worst = Math.max(0, ...run.longTasks.map((t) => t.duration));
    rows.push({
      measure: `long tasks while streaming, ${db} DB`,
      figures: `${run.longTasks.length} over ${TARGETS.longTaskMs} ms${run.longTasks.length ? ` (max ${ms(worst)})` : ''} in ${(run.streamMs / 1000).toFixed(1)} s`,
      target: `none > ${TARGETS.longTaskMs} ms`,
      pass: run.longTasks.length === 0,
    });
    rows.push({
      measure: '  main-thread CPU per task',
      figures: `max ${ms(run.trace.maxCpuMs)}; ${run.trace.cpuOver50} of ${run.trace.tasks} tasks over ${TARGETS.longTaskMs} ms; ${ms(run.trace.cpuTotalMs)} in all`,
      target: '(information)',
    });
    detail.push(
      `  heaviest main-thread tasks while streaming, ${db} DB (start after Send: CPU / wall): ` +
        run.trace.heaviest.map((t) => `${ms(t.afterSendMs)}: ${ms(t.cpuMs)} / ${ms(t.wallMs)}`).join('; '),
    );
    if (run.longTasks.length) {
      const cpuOf = (value: number | null) => (value === null ? 'not in trace' : `${ms(value)} CPU`);
      detail.push(
        `  long tasks, ${db} DB (start after Send: wall, thread CPU time): ` +
          run.longTasks.map((t) => `${ms(t.startTime - run.sentAt)}: ${ms(t.duration)}, ${cpuOf(t.cpuMs)}`).join('; '),
      );
    }
  }
  return { rows, detail };
}

export function sizeRows(sizes: BundleSizes): ReportRow[] {
  return [
    { measure: 'page JS at start, gzip', figures: kB(sizes.pageStart), target: `≤ ${kB(TARGETS.pageJsBytes)}`, pass: sizes.pageStart <= TARGETS.pageJsBytes },
    { measure: 'page JS incl. lazy chunks, gzip', figures: kB(sizes.pageAll), target: '(information)' },
    { measure: 'worker JS, gzip', figures: kB(sizes.worker), target: '(information)' },
  ];
}
