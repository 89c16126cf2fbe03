import type { Decision } from './decision.ts';
import type { DecidedBy, DeviceSignature, OwnerDevice, PausePoint } from './records/index.ts';

/**
 * What a claim on the sync server came to (src/sync/decision-claims.ts):
 * `won`, this decision was the first the server took for the card; `lost`,
 * another device's was, and here it is; `queued`, the server could not be
 * reached, so the claim is kept and sent when it can be; `local`, the card is
 * not synced (sync is off), so it is decided here as a card of this browser.
 */
export type ClaimOutcome =
  | { outcome: 'won' }
  | { outcome: 'lost'; decision: Decision; decidedBy: DecidedBy; signature?: DeviceSignature }
  | { outcome: 'queued' }
  | { outcome: 'local' };

/**
 * The person's other devices, as the engine needs them. A conversation runs
 * on the device that started it (its owner, which holds the API key); every
 * paired device may decide its cards. A decision is first claimed on the
 * user's sync server, whose create-if-absent picks one winner across devices;
 * the owner then applies the winner through the same compare-and-set as a
 * card of this browser. None: a browser of its own, as before sync.
 */
export interface DevicesPort {
  /** Whether decisions are claimed on a sync server now; while not, a press takes the one-transaction path. */
  readonly syncing: boolean;
  /** The owner a conversation started here records; undefined while sync is off (it runs where it is). */
  ownerForNew(): OwnerDevice | undefined;
  /** Whether this device runs a conversation with this owner: none, or this device. */
  runsHere(owner: OwnerDevice | undefined): boolean;
  /** Claims the decision of a pending card before anything is applied; the claim carries the deciding device's signature of it. */
  claim(pausePoint: PausePoint, decision: Decision, decidedBy: DecidedBy, signature?: DeviceSignature): Promise<ClaimOutcome>;
  /** Asks the device that runs a conversation to stop it (a person pressed Stop on another device). */
  requestStop(conversationId: string): Promise<void>;
}

/** Without sync: every conversation runs here and every card is decided here. */
export const THIS_BROWSER_ONLY: DevicesPort = {
  syncing: false,
  ownerForNew: () => undefined,
  runsHere: (owner) => owner === undefined,
  claim: async () => ({ outcome: 'local' }),
  requestStop: async () => {},
};

/** What the devices port needs of sync (src/sync/sync-service.ts), while it is loaded. */
export interface DeviceSync {
  /** Whether this device syncs now. */
  readonly on: boolean;
  /** `This device's name` while it syncs. */
  readonly deviceName: string;
  claim(pausePoint: PausePoint, decision: Decision, decidedBy: DecidedBy, signature?: DeviceSignature): Promise<ClaimOutcome>;
  requestStop(conversationId: string): Promise<void>;
}

/**
 * The devices port of a browser whose sync may be off, loading, or on:
 * conversations with no owner, or this device as owner, run here; decisions
 * are claimed while sync is on and decided here otherwise.
 */
export function devicesPort(deviceId: () => string | undefined, sync: () => DeviceSync | null | undefined): DevicesPort {
  return {
    get syncing() {
      return sync()?.on ?? false;
    },
    ownerForNew: () => {
      const on = sync();
      const id = deviceId();
      return on?.on && id !== undefined ? { id, name: on.deviceName } : undefined;
    },
    runsHere: (owner) => owner === undefined || owner.id === deviceId(),
    claim: async (pausePoint, decision, decidedBy, signature) => {
      const on = sync();
      return on?.on ? on.claim(pausePoint, decision, decidedBy, signature) : { outcome: 'local' };
    },
    requestStop: async (conversationId) => {
      const on = sync();
      if (on?.on) await on.requestStop(conversationId);
    },
  };
}
