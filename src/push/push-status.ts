import type { PushResult } from './push-sender.ts';

/** The last push's outcome (row `pushStatus`): what the status line and Settings show. This device's only; never synced. */
export const PUSH_STATUS_KEY = 'pushStatus';

export interface PushStatus {
  v: 1;
  at: number;
  ok: boolean;
  serverOrigin: string;
  error?: string;
}

export function pushStatusOf(result: PushResult): PushStatus {
  return { v: 1, at: result.at, ok: result.ok, serverOrigin: result.serverOrigin, ...(result.error ? { error: result.error } : {}) };
}

/** The stored row, read without zod (the page reads it): anything not as written reads as none. */
export function readPushStatus(value: unknown): PushStatus | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const s = value as Partial<PushStatus>;
  if (s.v !== 1 || typeof s.at !== 'number' || typeof s.ok !== 'boolean' || typeof s.serverOrigin !== 'string') return undefined;
  return { v: 1, at: s.at, ok: s.ok, serverOrigin: s.serverOrigin, ...(typeof s.error === 'string' ? { error: s.error } : {}) };
}

/** `Last push: failed 2 min ago — …`, `Last push: sent just now`. */
export function pushStatusText(status: PushStatus, now: number): string {
  const ago = agoText(now - status.at);
  return status.ok ? `Last push: sent ${ago}` : `Last push: failed ${ago} — ${status.error ?? 'unknown error'}`;
}

function agoText(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} days ago`;
}
