import { liveQuery, type Observable } from 'dexie';
import type { RemoteDecision } from '../sync/records/sync-records.ts';
import type { PausepointDb } from './db.ts';

/**
 * What every view may need to know of sync, read zod-free: App.svelte asks
 * whether sync is on before it chooses the first-run screen, every card reads
 * its claimed decision, and a conversation view which device it is on. Only the
 * worker writes these rows and tables, through their zod schemas (src/sync);
 * the page reads them as stored, checking by hand only what it branches on,
 * so that zod stays out of the page's start-up. Settings › Devices, loaded on
 * demand, reads the status and the devices with their schemas (live-sync-details.ts).
 */
export const SYNC_KEY = 'sync';
export const SYNC_STATUS_KEY = 'syncStatus';
const DEVICE_ID_KEY = 'deviceId';

/** Whether sync is on here: the settings row `sync` (SyncConfig) says `on: true`. Anything unreadable is off. */
export function liveSyncOn(db: PausepointDb): Observable<boolean> {
  return liveQuery(async () => isSyncOn((await db.settings.get(SYNC_KEY))?.value));
}

export function isSyncOn(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const row = value as { v?: unknown; on?: unknown };
  return row.v === 1 && row.on === true;
}

/** This browser's device id (settings row `deviceId`, which the worker makes on its start), or undefined before it exists. */
export function liveDeviceId(db: PausepointDb): Observable<string | undefined> {
  return liveQuery(async () => {
    const value = (await db.settings.get(DEVICE_ID_KEY))?.value;
    return typeof value === 'string' && value !== '' ? value : undefined;
  });
}

/** The decision this device claimed for a card through the sync server, if any. */
export function liveRemoteDecision(db: PausepointDb, pausePointId: string): Observable<RemoteDecision | undefined> {
  return liveQuery(async () => {
    const row = await db.remoteDecisions.get(pausePointId);
    return row && isRemoteDecision(row) ? row : undefined;
  });
}

const STATES: ReadonlySet<unknown> = new Set(['queued', 'won', 'lost']);

/** The fields a card reads; the rest came through the worker's schema and is only displayed. */
function isRemoteDecision(row: RemoteDecision): boolean {
  if (row.v !== 1 || !STATES.has(row.state) || typeof row.decidedBy?.label !== 'string') return false;
  return row.state !== 'lost' || (typeof row.winner?.decidedBy?.label === 'string' && typeof row.winner.decision?.type === 'string');
}
