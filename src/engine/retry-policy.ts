import type { ModelError } from './errors.ts';

export const MAX_ATTEMPTS = 5;
const BASE_DELAY_MS = 1_000;
const MAX_DELAY_MS = 60_000;

/**
 * How long to wait before attempt `attempt + 1`, or null to give up.
 * The endpoint's own `retry-after` wins over our backoff (within a minute).
 */
export function retryDelay(error: ModelError, attempt: number): number | null {
  if (!error.retryable || attempt >= MAX_ATTEMPTS) return null;
  if (error.retryAfterMs !== undefined) return Math.min(Math.max(error.retryAfterMs, 0), MAX_DELAY_MS);
  return Math.min(BASE_DELAY_MS * 2 ** (attempt - 1), MAX_DELAY_MS);
}
