import { liveQuery, type Observable } from 'dexie';
import type { RemoteDecision } from './records/sync-records.ts';
import type { PausepointDb } from './db.ts';

/**
 * What the first screen may need to know of sync, read zod-free: every card
 * reads its claimed decision, and a conversation another device runs reads
 * which device this is (the first-run screen, on demand, whether sync is on:
 * live-sync-on.ts). Only the
 * worker writes these rows and tables, through their zod schemas (src/sync);
 * the page reads them as stored, checking by hand only what it branches on,
 * so that zod stays out of the page's start-up. Settings › Devices, loaded on
 * demand, reads the status and the devices with their schemas (live-sync-details.ts).
 */
export const SYNC_KEY = 'sync';
export const SYNC_STATUS_KEY = 'syncStatus';
const DEVICE_ID_KEY = 'deviceId';

/** This browser's device id (settings row `deviceId`, which the worker makes on its start), or undefined before it exists. */
export function liveDeviceId(db: PausepointDb): Observable<string | undefined> {
  return liveQuery(async () => {
    const value = (await db.settings.get(DEVICE_ID_KEY))?.value;
    return typeof value === 'string' && value !== '' ? value : undefined;
  });
}

/**
 * The decision this device claimed for a card through the sync server, if any.
 * Only this device's worker writes the table, through RemoteDecision's schema
 * (src/sync); the page checks the state it branches on, and reads the rest as
 * stored, like the MCP servers' records (live-mcp-servers.ts).
 */
export function liveRemoteDecision(db: PausepointDb, pausePointId: string): Observable<RemoteDecision | undefined> {
  return liveQuery(async () => {
    const row = await db.remoteDecisions.get(pausePointId);
    return row && STATES.has(row.state) ? row : undefined;
  });
}

const STATES: ReadonlySet<unknown> = new Set(['queued', 'won', 'lost']);
