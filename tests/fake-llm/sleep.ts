import { setTimeout as delay } from 'node:timers/promises';

/**
 * Waits `ms`, resolving early with `false` when `signal` aborts (the client left or the
 * server is closing) so scripted delays never outlive the request they belong to.
 */
export async function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return false;
  if (ms <= 0) return true;
  try {
    await delay(ms, undefined, { signal });
    return true;
  } catch (error) {
    if (signal.aborted) return false;
    throw error;
  }
}
