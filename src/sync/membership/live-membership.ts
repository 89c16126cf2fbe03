import type { SigningKeyJwk } from '../../identity/signing-key-jwk.ts';
import type { PausepointDb } from '../../storage/db.ts';
import type { CouchClient } from '../couch/couch-client.ts';
import { deriveSyncKeys, type SyncKeys } from '../crypto/data-key.ts';
import { openGrant } from '../crypto/key-grant.ts';
import { grantContext } from '../sync-document.ts';
import type { MembershipEntry } from './membership-entry.ts';
import { followLog, type FollowOptions } from './membership-log.ts';
import { currentKeyOf, type MembershipState } from './membership-state.ts';
import { appendStoredLog } from './membership-store.ts';

/** Whose signatures a synced document may carry: the pinned key of a member not removed, by device id. */
export interface MemberKeys {
  keyOf(deviceId: string): SigningKeyJwk | undefined;
}

/** The membership as the replicator's parts use it: whose signatures count, and following the log when it grows. */
export interface FollowedMembership extends MemberKeys {
  follow(): Promise<MembershipNews>;
}

/** What following the log changed for this device. */
export interface MembershipNews {
  /** This device was removed (or left out of a rotation's grants): it stops syncing. */
  removedHere: boolean;
  /** The newest data key this device was granted, to start again under. */
  rotated?: { epoch: number; raw: Uint8Array<ArrayBuffer> };
}

export interface LiveMembershipOptions {
  db: PausepointDb;
  client: CouchClient;
  database: string;
  deviceId: string;
  /** This device's ECDH private key, which opens its grants. */
  agreementKey: CryptoKey | undefined;
  /** The data keys this device holds, by epoch. */
  keyring: Map<number, SyncKeys>;
}

/**
 * The membership log as a running sync session holds it: the state the
 * synced documents' signatures are checked against, followed on the server
 * when the feed shows a change to it, and stored as it grows.
 */
export class LiveMembership implements FollowedMembership {
  #following: Promise<MembershipNews> | null = null;

  constructor(
    public state: MembershipState,
    private readonly options: LiveMembershipOptions,
  ) {}

  keyOf(deviceId: string): SigningKeyJwk | undefined {
    return currentKeyOf(this.state, deviceId);
  }

  /** What a writer of the log follows with: this device's keys, and its grants opened as rotations come. */
  followOptions(onRotated: (epoch: number, raw: Uint8Array<ArrayBuffer>) => void = () => {}): FollowOptions {
    const { database, deviceId, agreementKey, keyring } = this.options;
    return {
      keyring,
      grantFor: async (entry) => {
        const grant = Object.hasOwn(entry.grants, deviceId) ? entry.grants[deviceId] : undefined;
        const raw = grant && agreementKey ? await openGrant(grant, agreementKey, grantContext(database, entry.epoch, deviceId)) : undefined;
        if (!raw) return undefined;
        onRotated(entry.epoch, raw.slice());
        return deriveSyncKeys(raw);
      },
    };
  }

  /** Reads what was appended to the log since, adopts it, stores it, and says what it means here. */
  follow(): Promise<MembershipNews> {
    this.#following ??= this.#follow().finally(() => (this.#following = null));
    return this.#following;
  }

  async #follow(): Promise<MembershipNews> {
    let rotated: MembershipNews['rotated'];
    const { state, adopted } = await followLog(this.options.client, this.state, this.followOptions((epoch, raw) => (rotated = { epoch, raw })));
    return this.adopt(state, adopted, rotated);
  }

  /** Takes a followed state as this session's, stores what it adopted, and marks removed devices as such. */
  async adopt(state: MembershipState, adopted: readonly MembershipEntry[], rotated?: MembershipNews['rotated']): Promise<MembershipNews> {
    const { db, database, deviceId } = this.options;
    // Two followers at once (the feed's and a Remove's): the state only moves forward.
    if (state.seq >= this.state.seq) this.state = state;
    if (adopted.length > 0) await appendStoredLog(db, database, adopted);
    for (const entry of adopted) {
      if (entry.op !== 'remove') continue;
      const device = await db.syncDevices.get(entry.subject.deviceId);
      await db.syncDevices.put({ v: 1, id: entry.subject.deviceId, name: device?.name ?? entry.subject.deviceId, lastSeenAt: device?.lastSeenAt ?? 0, removed: true });
    }
    const me = state.members.get(deviceId);
    const removedHere = me?.removed === true || (rotated === undefined && adopted.some((e) => e.op === 'remove'));
    return { removedHere, ...(rotated && !removedHere ? { rotated } : {}) };
  }
}
