/** The nearest-rank percentile (p in 0–100) of `values`: a value that was measured, never an interpolation. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1]!;
}

/** "12.3 / 18.9 ms (min 9.8, max 31.0)" */
export function p50p90(values: readonly number[]): string {
  const f = (v: number) => v.toFixed(1);
  return `${f(percentile(values, 50))} / ${f(percentile(values, 90))} ms (min ${f(Math.min(...values))}, max ${f(Math.max(...values))})`;
}
