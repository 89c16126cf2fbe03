import { liveQuery, type Observable } from 'dexie';
import type { PausepointDb } from './db.ts';
import { SYNC_KEY } from './live-sync.ts';

/** Whether sync is on here: the settings row `sync` (SyncConfig) says `on: true`. Anything unreadable is off. */
export function liveSyncOn(db: PausepointDb): Observable<boolean> {
  return liveQuery(async () => isSyncOn((await db.settings.get(SYNC_KEY))?.value));
}

export function isSyncOn(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const row = value as { v?: unknown; on?: unknown };
  return row.v === 1 && row.on === true;
}
