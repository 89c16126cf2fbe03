import { liveQuery } from 'dexie';
import type { DecideResult } from '../engine/decision.ts';
import { devicesPort, type DevicesPort } from '../engine/devices-port.ts';
import type { DecidedBy, DeviceSignature, PausePoint } from '../engine/records/index.ts';
import type { Decision } from '../engine/decision.ts';
import type { PausepointDb } from '../storage/db.ts';
import type { SyncService } from '../sync/sync-service.ts';
import type { DecisionClaim } from '../sync/sync-document.ts';
import type { IntentHandlers, SyncIntent } from './protocol.ts';

/** What the sync host needs of the engine: applying a decision another device won. */
export interface ClaimTarget {
  applyClaimed(pausePointId: string, decision: Decision, decidedBy: DecidedBy, signature?: DeviceSignature): Promise<DecideResult>;
  stopEverywhere(conversationId: string): Promise<void>;
}

/**
 * The worker's sync side. src/sync comes in with a dynamic import only when
 * sync is on (stored, or turned on or joined here), so a browser that never
 * syncs never loads it. Every worker of the browser follows the stored sync
 * settings (turned on or off in another tab, it starts or stops here too) and
 * claims its own tab's decisions; one of them at a time, the holder of the
 * sync lock, follows the server and pushes (sync-service.ts).
 */
export class SyncHost {
  #service: Promise<SyncService> | null = null;
  #loaded: SyncService | null = null;
  #deviceId: string | undefined;
  #target: ClaimTarget | undefined;

  constructor(
    private readonly db: PausepointDb,
    private readonly deviceId: Promise<string>,
    private readonly onCards: (cards: readonly PausePoint[]) => void,
  ) {
    void deviceId.then((id) => (this.#deviceId = id));
    // Sync turned on or off here or in another tab, or its key rotated there: this worker follows. Read at once,
    // beside the device id rather than after it (the service waits for both): a page opened on a push's link
    // waits for the sync's first request (bench:push).
    liveQuery(() => db.settings.bulkGet(['sync', 'syncVault'])).subscribe({
      next: ([row]) => void (row ? this.service().then((s) => s.start()) : this.#loaded?.stop()),
      error: (error: unknown) => console.error('Pausepoint: watching the sync settings failed', error),
    });
  }

  /** Where decisions of synced conversations go once the engine exists (the engine takes `devices` first). */
  attach(target: ClaimTarget): void {
    this.#target = target;
  }

  /** `This device's name` while it syncs; undefined otherwise. */
  deviceName(): string | undefined {
    return this.#loaded?.on ? this.#loaded.deviceName : undefined;
  }

  /** The person's devices as the engine sees them (see `DevicesPort`). */
  readonly devices: DevicesPort = devicesPort(
    () => this.#deviceId,
    () => this.#loaded,
  );

  service(): Promise<SyncService> {
    this.#service ??= this.#load().catch((error: unknown) => {
      this.#service = null;
      throw error;
    });
    return this.#service;
  }

  async #load(): Promise<SyncService> {
    const [{ createSyncService }, deviceId] = await Promise.all([import('../sync/sync-service.ts'), this.deviceId]);
    const service = createSyncService(this.db, {
      deviceId,
      origin: self.location.origin,
      hooks: {
        applyClaim: (claim) => this.#apply(claim),
        newCards: (cards) => this.onCards(cards),
        stop: async (conversationId) => this.#target?.stopEverywhere(conversationId),
      },
      lead: (work, signal) => navigator.locks.request('pausepoint:sync', { signal }, () => work(signal)).catch((error: unknown) => {
        if (!(error instanceof DOMException && error.name === 'AbortError')) throw error;
      }),
    });
    this.#loaded = service;
    return service;
  }

  async #apply(claim: DecisionClaim): Promise<void> {
    if (!this.#target) return;
    await this.#target.applyClaimed(claim.pausePointId, claim.decision, { ...claim.decidedBy, via: 'sync' }, claim.deviceSignature);
  }

  /** The sync intents' handlers; each but the passphrase's two (the meter, Suggest) loads the service first. */
  readonly handlers: Pick<IntentHandlers, SyncIntent['type']> = {
    syncTurnOn: async ({ type: _, ...input }) => (await this.service()).turnOn(input),
    syncTurnOff: async () => (await this.service()).turnOff(),
    syncAddDevice: async () => (await this.service()).addDevice(),
    syncJoin: async ({ type: _, ...input }) => (await this.service()).join(input),
    syncRemoveDevice: async ({ deviceId }) => (await this.service()).removeDevice(deviceId),
    syncRenameDevice: async ({ name }) => (await this.service()).renameDevice(name),
    syncRetry: async () => (await this.service()).retryNow(),
    // Not the service: the meter is shown before sync is on, and needs only zxcvbn (its chunk shared with sync-setup's check).
    syncPassphraseStrength: async ({ passphrase, userInputs }) =>
      (await import('../sync/passphrase/passphrase-strength.ts')).passphraseStrength(passphrase, userInputs),
    syncSuggestPassphrase: async () => (await import('../sync/passphrase/four-word-phrase.ts')).suggestPassphrase(),
  };
}
