export interface ReportRow {
  measure: string;
  figures: string;
  target: string;
  /** undefined for figures shown for information, with no target. */
  pass?: boolean;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export const ms = (value: number) => `${Math.round(value)} ms`;
export const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
export const times = (value: number) => `${value.toFixed(2)}×`;

/** "median 312 ms (min 290)" */
export function medianMin(values: readonly number[]): string {
  return `median ${ms(median(values))} (min ${Math.round(Math.min(...values))})`;
}

export function formatTable(rows: readonly ReportRow[]): string {
  const header = ['measure', 'figures', 'target', 'result'];
  const body = rows.map((row) => [row.measure, row.figures, row.target, row.pass === undefined ? '—' : row.pass ? 'PASS' : 'MISS']);
  const widths = header.map((title, column) => Math.max(title.length, ...body.map((cells) => cells[column]!.length)));
  const line = (cells: readonly string[]) => cells.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd();
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...body.map(line)].join('\n');
}
