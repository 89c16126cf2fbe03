/**
 * Endpoints that refused `stream_options` (some compatible servers answer 400
 * to any field they do not know), by base URL, for this worker's lifetime:
 * after one refusal their requests go without it, and usage is whatever they
 * report unasked. Held in memory on purpose: a server upgraded meanwhile gets
 * asked again after a reload, and nothing stored has to be migrated for it.
 */
export class StreamOptionsRefusals {
  readonly #refused = new Set<string>();

  refuses(baseUrl: string): boolean {
    return this.#refused.has(normalise(baseUrl));
  }

  remember(baseUrl: string): void {
    this.#refused.add(normalise(baseUrl));
  }
}

/** One worker's memory, shared by every model built for the same endpoint. */
export const streamOptionsRefusals = new StreamOptionsRefusals();

/** Whether an error status and message say the endpoint does not take `stream_options`. */
export function refusesStreamOptions(status: number | undefined, message: string): boolean {
  return status !== undefined && status >= 400 && status < 500 && status !== 401 && status !== 403 && status !== 429 && /stream_options|include_usage/i.test(message);
}

function normalise(baseUrl: string): string {
  return baseUrl.trim().replace(/\/+$/, '');
}
