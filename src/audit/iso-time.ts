/** 0000-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z in epoch milliseconds. */
const EARLIEST = -62_167_219_200_000;
const LATEST = 253_402_300_799_999;
const DAY = 86_400_000;

const TWO = Array.from({ length: 60 }, (_, n) => String(n).padStart(2, '0'));
const THREE = Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, '0'));

/** The last day formatted: timestamps in an export come in runs from the same day. */
let cachedDay = NaN;
let cachedPrefix = '';

/**
 * Epoch milliseconds as the ISO 8601 UTC text audit files use, or null when the
 * number is no time between the years 0 and 9999 (stored records are untrusted:
 * a corrupt `createdAt` must not throw out of the middle of an export, and
 * `toISOString` writes other years in an expanded form the format refuses).
 *
 * Writes exactly what `Date.prototype.toISOString` writes; the date part is
 * cached per day because an export formats several hundred thousand times.
 */
export function isoTime(ms: number): string | null {
  if (!(ms >= EARLIEST && ms <= LATEST)) return null;
  if (!Number.isInteger(ms)) return new Date(ms).toISOString();
  const day = Math.floor(ms / DAY);
  if (day !== cachedDay) {
    cachedDay = day;
    cachedPrefix = new Date(day * DAY).toISOString().slice(0, 11);
  }
  let rest = ms - day * DAY;
  const millis = rest % 1000;
  rest = (rest - millis) / 1000;
  const seconds = rest % 60;
  rest = (rest - seconds) / 60;
  const minutes = rest % 60;
  const hours = (rest - minutes) / 60;
  return `${cachedPrefix}${TWO[hours]}:${TWO[minutes]}:${TWO[seconds]}.${THREE[millis]}Z`;
}
