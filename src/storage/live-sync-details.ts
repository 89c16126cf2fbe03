import { liveQuery, type Observable } from 'dexie';
import { SyncConfig, SyncDevice, SyncStatus } from './records/sync-records.ts';
import type { PausepointDb } from './db.ts';
import { SYNC_KEY, SYNC_STATUS_KEY } from './live-sync.ts';

/**
 * What Settings › Devices shows, live across tabs, each record through its
 * schema: the section is loaded on demand, so zod costs the start-up nothing
 * here, and a row this version cannot read is left out rather than shown wrong.
 */
export interface SyncDetails {
  /** Where sync goes, without its password; undefined when sync was never set up here. */
  config: Omit<SyncConfig, 'password'> | undefined;
  status: SyncStatus | undefined;
  /** Paired devices (removed ones left out), by name. */
  devices: SyncDevice[];
}

export function liveSyncDetails(db: PausepointDb): Observable<SyncDetails> {
  return liveQuery(async () => {
    const [configRow, statusRow] = await db.settings.bulkGet([SYNC_KEY, SYNC_STATUS_KEY]);
    const config = SyncConfig.safeParse(configRow?.value);
    const status = SyncStatus.safeParse(statusRow?.value);
    const devices = (await db.syncDevices.toArray()).flatMap((row) => {
      const device = SyncDevice.safeParse(row);
      return device.success && !device.data.removed ? [device.data] : [];
    });
    devices.sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
    return {
      config: config.success ? withoutPassword(config.data) : undefined,
      status: status.success ? status.data : undefined,
      devices,
    };
  });
}

function withoutPassword({ password: _, ...config }: SyncConfig): Omit<SyncConfig, 'password'> {
  return config;
}
