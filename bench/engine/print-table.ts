import type { TurnTimings } from './conversation-runner.ts';
import type { FloorFigures } from './chromium/idb-floor.ts';
import { EARLY, LATE } from './scripted-turns.ts';

/** Our targets for the Dexie-backed engine (issue 3), in ms per turn. */
export const TARGETS = { early: 5, late: 10 } as const;
/** On Chromium's real IndexedDB (issue 15): at most this at turn 200, and flat. */
export const CHROMIUM_TARGET_MS = 5;

export interface Summary {
  name: string;
  early: number;
  late: number;
  /** Process CPU time per turn over the same turns. */
  earlyCpu: number;
  lateCpu: number;
}

function meanOf(perTurn: readonly number[], range: { from: number; to: number }): number {
  const slice = perTurn.slice(range.from - 1, range.to);
  return slice.reduce((a, b) => a + b, 0) / slice.length;
}

export function summarise(timings: TurnTimings): Summary {
  return {
    name: timings.name,
    early: meanOf(timings.perTurn, EARLY),
    late: meanOf(timings.perTurn, LATE),
    earlyCpu: meanOf(timings.cpuPerTurn, EARLY),
    lateCpu: meanOf(timings.cpuPerTurn, LATE),
  };
}

const ms = (value: number) => `${value.toFixed(2)} ms`;
const times = (value: number) => `${value.toFixed(2)}×`;

/** The table, with every ratio taken against the first row (our engine over Dexie). */
export function formatTable(rows: readonly Summary[]): string {
  const [base] = rows;
  if (!base) return '';
  const header = ['runner', `turns ${EARLY.from}–${EARLY.to}`, `turns ${LATE.from}–${LATE.to}`, 'late/early', `early vs ${base.name}`, `late vs ${base.name}`];
  const body = rows.map((row) => [row.name, ms(row.early), ms(row.late), times(row.late / row.early), times(row.early / base.early), times(row.late / base.late)]);
  const widths = header.map((title, column) => Math.max(title.length, ...body.map((cells) => cells[column]?.length ?? 0)));
  const line = (cells: string[]) => cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ');
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...body.map(line)].join('\n');
}

export function formatTargets(dexie: Summary): string {
  const verdict = (value: number, limit: number, cpu: number) =>
    `${ms(value)} per turn (target ≤ ${limit} ms): ${value <= limit ? 'met' : 'MISSED'} (process CPU time ${ms(cpu)} per turn)`;
  return [
    `Targets for ${dexie.name} (judged on wall time; CPU time shown for busy machines):`,
    `  turns ${EARLY.from}–${EARLY.to}: ${verdict(dexie.early, TARGETS.early, dexie.earlyCpu)}`,
    `  turns ${LATE.from}–${LATE.to}: ${verdict(dexie.late, TARGETS.late, dexie.lateCpu)}`,
  ].join('\n');
}

/**
 * Issue 15's target for the run on Chromium's IndexedDB: turns 181–200 within the limit, and no slower than
 * turns 1–20 by more than a tenth. With the floor measured in the same run, the line says where the limit
 * stands against what the turn's IndexedDB requests cost with no engine and no Dexie around them.
 */
export function formatChromiumTarget(chromium: Summary, floor?: FloorFigures): string {
  const flat = chromium.late <= chromium.early * 1.1;
  const met = chromium.late <= CHROMIUM_TARGET_MS && flat;
  const verdict =
    `Target for ${chromium.name}: ≤ ${CHROMIUM_TARGET_MS} ms per turn at turn 200, flat: turns ${LATE.from}–${LATE.to} ${ms(chromium.late)}, ` +
    `late/early ${times(chromium.late / chromium.early)} — ${met ? 'met' : 'MISSED'}`;
  if (!floor) return verdict;
  const aboveTarget = floor.atOnce.late > CHROMIUM_TARGET_MS ? ', above the target itself' : '';
  return (
    `${verdict}\n  the same turns' IndexedDB requests alone (idb-floor.ts), turns ${LATE.from}–${LATE.to}: ${ms(floor.atOnce.late)} with a transaction's requests at once${aboveTarget}, ` +
    `${ms(floor.awaited.late)} with each awaited; the runner spends ${ms(chromium.late - floor.atOnce.late)} above the first`
  );
}
