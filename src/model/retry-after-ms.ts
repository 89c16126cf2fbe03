/**
 * How long the endpoint asked us to wait, in milliseconds, or undefined when it
 * did not say (or said something unreadable). Reads OpenAI's non-standard
 * `retry-after-ms` first, then the standard `retry-after`, which is either
 * seconds or an HTTP date.
 */
export function retryAfterMs(headers: Headers | undefined, now: number = Date.now()): number | undefined {
  if (!headers) return undefined;

  const ms = parseNumber(headers.get('retry-after-ms'));
  if (ms !== undefined) return Math.ceil(ms);

  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  const seconds = parseNumber(value);
  if (seconds !== undefined) return Math.ceil(seconds * 1000);

  // Date.parse is lenient ("-5" is the year 5 BC): an HTTP date always names its weekday and month.
  const date = /[a-z]/i.test(value) ? Date.parse(value) : Number.NaN;
  // A date in the past means "now": the wait is over, not unknown.
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** A plain non-negative decimal, so that a date like "Wed, 21 Oct 2026" is not read as a number. */
function parseNumber(value: string | null): number | undefined {
  if (value === null || !/^\s*\d+(\.\d+)?\s*$/.test(value)) return undefined;
  return Number(value);
}
