import type { PausepointDb } from '../storage/db.ts';
import type { SyncService } from '../sync/sync-service.ts';
import type { IntentHandlers, SyncIntent } from './protocol.ts';

/**
 * The worker's sync side, loaded only when needed: src/sync comes in with a
 * dynamic import the first time sync is on (stored, or turned on or joined
 * here), so a browser that never syncs never loads it.
 */
export class SyncHost {
  #service: Promise<SyncService> | null = null;

  constructor(private readonly db: PausepointDb) {}

  service(): Promise<SyncService> {
    this.#service ??= import('../sync/sync-service.ts')
      .then(({ createSyncService }) => createSyncService(this.db))
      .catch((error: unknown) => {
        this.#service = null;
        throw error;
      });
    return this.#service;
  }

  /** The sync intents' handlers; each loads the service first. */
  readonly handlers: Pick<IntentHandlers, SyncIntent['type']> = {
    syncTurnOn: async ({ type: _, ...input }) => (await this.service()).turnOn(input),
    syncTurnOff: async () => (await this.service()).turnOff(),
    syncAddDevice: async () => (await this.service()).addDevice(),
    syncJoin: async ({ type: _, ...input }) => (await this.service()).join(input),
    syncRemoveDevice: async ({ deviceId }) => (await this.service()).removeDevice(deviceId),
    syncRenameDevice: async ({ name }) => (await this.service()).renameDevice(name),
    syncRetry: async () => (await this.service()).retryNow(),
  };
}
