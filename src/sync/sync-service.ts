import Dexie, { liveQuery } from 'dexie';
import type { Decision } from '../engine/decision.ts';
import type { ClaimOutcome } from '../engine/devices-port.ts';
import type { DecidedBy, DeviceSignature, PausePoint } from '../engine/records/index.ts';
import { PUSH_CONFIG_KEY, PUSH_OFF_KEY } from '../push/push-config.ts';
import type { PausepointDb } from '../storage/db.ts';
import { deviceIdentity } from '../identity/identity-store.ts';
import type { DeviceIdentity } from '../identity/device-identity.ts';
import { deriveSyncKeys, newDataKey, type SyncKeys } from './crypto/data-key.ts';
import { openForDevice, sealForDevice, type SealedDataKey } from './crypto/device-vault.ts';
import { sealDocument } from './crypto/envelope.ts';
import { grantKey, newAgreementKeys, type KeyGrant } from './crypto/key-grant.ts';
import { EnterRefused, enterLog } from './membership/enter-log.ts';
import { LiveMembership } from './membership/live-membership.ts';
import { MembershipError } from './membership/membership-log.ts';
import type { MembershipEntry } from './membership/membership-entry.ts';
import { appendStoredLog, readMembershipState } from './membership/membership-store.ts';
import { appendEntry, signEntry } from './membership/membership-writer.ts';
import { CouchClient } from './couch/couch-client.ts';
import { claimDecision } from './decision-claims.ts';
import type { SyncConfig } from '../storage/records/sync-records.ts';
import { Replicator, type ReplicatorHooks } from './replicator.ts';
import { publishHeads, storeFloors } from './rollback-heads.ts';
import { SealedDocuments } from './sealed-documents.ts';
import type { SyncContext } from './sync-context.ts';
import type { JoinWithPairing, PairingInvite, SyncResult, TurnOnSync } from './sync-control.ts';
import { CHECK, invite, joinWithPairing, PARAMS_ID, SetupRefused, setUpWithPassphrase, type SyncSetup } from './sync-setup.ts';
import { grantContext } from './sync-document.ts';
import { forgetSync, readSyncConfig, readVault, storeRotatedVault, storeSyncSetup, SYNC_CONFIG_KEY, writeSyncStatus, writeVault, type Vault } from './sync-store.ts';

/** Everything the worker's sync host asks of sync (src/worker/sync-host.ts). */
export interface SyncService {
  /** Starts syncing if it is on here (stored); call again after it was turned on or off in another tab. */
  start(): Promise<void>;
  stop(): void;
  /** Whether this device syncs now: its decisions are claimed on the server. */
  readonly on: boolean;
  /** `This device's name` while it syncs. */
  readonly deviceName: string;
  claim(pausePoint: PausePoint, decision: Decision, decidedBy: DecidedBy, signature?: DeviceSignature): Promise<ClaimOutcome>;
  /** Stop on a conversation another device runs: a document that device reads and obeys. */
  requestStop(conversationId: string): Promise<void>;
  turnOn(input: TurnOnSync): Promise<SyncResult>;
  turnOff(): Promise<void>;
  addDevice(): Promise<PairingInvite>;
  join(input: JoinWithPairing): Promise<SyncResult>;
  removeDevice(deviceId: string): Promise<void>;
  renameDevice(name: string): Promise<void>;
  retryNow(): Promise<void>;
}

export interface SyncServiceOptions {
  deviceId: string;
  /** The app's origin, for pairing links. */
  origin: string;
  hooks: ReplicatorHooks;
  /**
   * Runs `work` while this browser's sync lock is held (one worker of the
   * browser follows and pushes; every worker may claim), until `signal` aborts.
   */
  lead(work: (signal: AbortSignal) => Promise<void>, signal: AbortSignal): Promise<void>;
  now?: () => number;
  /** The requests to the sync server (tests: a network that can go away). */
  fetch?: typeof fetch;
}

/** Tables whose changes another device shows: a change to one of them is pushed. */
const WATCHED = /\/(conversations|pausePoints|ruleEvents|auditEvents|remoteDecisions)\//;

interface Active {
  config: SyncConfig;
  vault: Vault;
  ctx: SyncContext;
  membership: LiveMembership;
  identity: DeviceIdentity;
  replicator: Replicator;
  stop: AbortController;
}

/** A device that synced before the membership log existed, and cannot enter it with the key it holds: it is told to set sync up again. */
export const SET_UP_AGAIN =
  'This version of Pausepoint proves which device wrote what, and this device could not join the devices’ signed list with the key it holds: pair it again from a device that syncs (or turn sync on again with the passphrase). Everything stays here.';

export function createSyncService(db: PausepointDb, options: SyncServiceOptions): SyncService {
  return new SyncSession(db, options);
}

class SyncSession implements SyncService {
  #active: Active | undefined;
  #starting: Promise<void> | null = null;
  #rotation: Promise<void> = Promise.resolve();
  readonly #now: () => number;

  constructor(
    private readonly db: PausepointDb,
    private readonly options: SyncServiceOptions,
  ) {
    this.#now = options.now ?? Date.now;
    Dexie.on('storagemutated', (parts) => {
      if (this.#active && Object.keys(parts).some((key) => key === 'all' || WATCHED.test(key))) this.#active.replicator.poke();
    });
    // Of the settings table (written often: the sync's own status), only the shared push settings are pushed.
    liveQuery(() => db.settings.bulkGet([PUSH_CONFIG_KEY, PUSH_OFF_KEY])).subscribe({
      next: () => this.#active?.replicator.poke(),
      error: (error: unknown) => console.error('Pausepoint: watching the push settings for sync failed', error),
    });
  }

  get on(): boolean {
    return this.#active !== undefined;
  }

  get deviceName(): string {
    return this.#active?.config.deviceName ?? '';
  }

  start(): Promise<void> {
    this.#starting ??= this.#start().finally(() => (this.#starting = null));
    return this.#starting;
  }

  async #start(): Promise<void> {
    // Both at once: a start (a page opened on a push's link among them) waits for them before its first request.
    const [config, stored] = await Promise.all([readSyncConfig(this.db), readVault(this.db)]);
    const vault = config?.on ? stored : undefined;
    if (!config?.on || !vault) return this.stop();
    // The same server under the same key: nothing to start again (a rotation in another tab changes the key).
    if (this.#active && sameServer(this.#active.config, config) && this.#active.vault.epoch === vault.epoch) {
      this.#active.config = config;
      this.#active.ctx.device.name = config.deviceName;
      return;
    }
    this.stop();
    const withKeys = vault.agreement ? vault : { ...vault, agreement: await newAgreementKeys() };
    if (withKeys !== vault) await writeVault(this.db, withKeys);
    const setup = { config, vault: withKeys, keys: await keysOf(withKeys, withKeys.sealed), client: this.#client(config) };
    if (!(await readMembershipState(this.db, config.database)) && !(await this.#enterAsSynced(setup))) return;
    await this.#activate(setup, await previousKeys(withKeys));
  }

  /**
   * A device that synced before the membership log existed: it enters the
   * log with the key it holds (founding it if none is there), and pushes
   * everything again, signed. When it cannot (the log's key is newer, or
   * this device was removed), it stops and says what to do; when the server
   * cannot be reached, it says so and tries at its next start.
   */
  async #enterAsSynced({ config, vault, keys, client }: Omit<SyncSetup, 'membership'>): Promise<boolean> {
    try {
      const identity = await deviceIdentity(this.db);
      const self = { deviceId: this.options.deviceId, identity, agreementKey: vault.agreement!.publicKey };
      const { entries } = await enterLog({ client, self, keys, epoch: vault.epoch, now: this.#now() });
      await appendStoredLog(this.db, config.database, entries, true);
      await this.db.syncDocs.clear();
      return true;
    } catch (error) {
      if (error instanceof EnterRefused || error instanceof MembershipError) await this.#forget(SET_UP_AGAIN);
      else await writeSyncStatus(this.db, 'unreachable', { message: error instanceof Error ? error.message : String(error) });
      return false;
    }
  }

  async #activate(setup: Omit<SyncSetup, 'membership'>, previous: readonly SyncKeys[] = []): Promise<void> {
    const begin = await this.#prepare(setup, previous);
    if (!begin) return this.#forget(SET_UP_AGAIN);
    begin();
  }

  /** Everything a session needs read first, so that starting it (the function answered) is one synchronous step. */
  async #prepare({ config, vault, keys, client }: Omit<SyncSetup, 'membership'>, previous: readonly SyncKeys[]): Promise<(() => void) | undefined> {
    const [identity, stored] = await Promise.all([deviceIdentity(this.db), readMembershipState(this.db, config.database)]);
    if (!stored) return undefined;
    // The keys this device holds by epoch: each rotation added one, so the previous ones count down from the current.
    const keyring = new Map<number, SyncKeys>([[vault.epoch, keys], ...previous.map((k, i): [number, SyncKeys] => [vault.epoch - 1 - i, k])]);
    const membership = new LiveMembership(stored.state, {
      db: this.db,
      client,
      database: config.database,
      deviceId: this.options.deviceId,
      agreementKey: vault.agreement?.privateKey,
      keyring,
    });
    const ctx: SyncContext = {
      db: this.db,
      client,
      sealed: new SealedDocuments(keys, config.database, previous, { identity, members: membership }),
      device: { id: this.options.deviceId, name: config.deviceName },
      since: config.since,
      epoch: vault.epoch,
      membership,
      now: this.#now,
    };
    const replicator = new Replicator(ctx, this.options.hooks, {
      removed: () => this.#forget('Another device removed this one from sync: everything stays here, and nothing syncs.'),
      rotated: (epoch, raw) => this.#rotated(raw, epoch),
    });
    return () => {
      this.stop();
      this.#begin({ config, vault, ctx, membership, identity, replicator, stop: new AbortController() });
    };
  }

  #begin(active: Active): void {
    const { replicator, stop } = active;
    this.#active = active;
    void this.options
      .lead((signal) => replicator.run(signal), stop.signal)
      .catch((error: unknown) => console.error('Pausepoint: sync stopped', error));
  }

  async #forget(why: string): Promise<void> {
    this.stop();
    await forgetSync(this.db, why);
  }

  /** Starts again under a rotated key: everything this device writes is pushed again, under the new key's ids. */
  #rotated(raw: Uint8Array, epoch: number): Promise<void> {
    // The feed and a Remove pressed here may both bring the same rotation at once: in turn, the second finds this device on it.
    return (this.#rotation = this.#rotation.catch(() => undefined).then(() => this.#rotate(raw, epoch)));
  }

  async #rotate(raw: Uint8Array, epoch: number): Promise<void> {
    const active = this.#active;
    if (!active || epoch <= active.vault.epoch) return;
    const { vault, config } = active;
    const rotated: Vault = { ...vault, sealed: await sealForDevice(vault.vaultKey, raw), epoch, previous: [vault.sealed, ...vault.previous] };
    const keys = await deriveSyncKeys(raw);
    raw.fill(0);
    const previous = await previousKeys(rotated);
    const begin = await this.#prepare({ config, vault: rotated, keys, client: this.#client(config) }, previous);
    await storeRotatedVault(this.db, rotated);
    // The old session stops as the new one starts, in one step: a decision made meanwhile finds sync on (never off, decided here).
    if (begin) begin();
    else await this.#forget(SET_UP_AGAIN);
  }

  /**
   * The removal of `removed` as a signed entry of the membership log, which
   * carries the rotation: a new data key granted to every member that stays,
   * at the agreement key the log pinned for it (never one a device document
   * claims), and the parameters' check under the new key. A device removed,
   * or left out, can read neither the grants nor anything sealed after; and
   * its own entries no longer count, since it is no member after this one.
   */
  async #removeEntry(active: Active, removed: string, state: LiveMembership['state']): Promise<MembershipEntry | undefined> {
    const target = state.members.get(removed);
    if (!target || target.removed) return undefined;
    const { database } = active.config;
    const epoch = state.epoch + 1;
    const raw = newDataKey();
    const keys = await deriveSyncKeys(raw);
    const grants: Record<string, KeyGrant> = {};
    for (const member of state.members.values()) {
      if (member.removed || member.deviceId === removed) continue;
      grants[member.deviceId] = await grantKey(raw, member.agreementKey, grantContext(database, epoch, member.deviceId));
    }
    raw.fill(0);
    const check = await sealDocument(keys, { database, docId: PARAMS_ID }, CHECK);
    const me = this.options.deviceId;
    return signEntry(active.identity, { v: 1, op: 'remove', seq: state.seq + 1, prev: state.head, epoch, by: me, at: this.#now(), subject: { deviceId: removed }, check, grants });
  }

  #client(config: Pick<SyncConfig, 'serverUrl' | 'database' | 'username' | 'password'>): CouchClient {
    return new CouchClient({ ...config, ...(this.options.fetch ? { fetch: this.options.fetch } : {}) });
  }

  stop(): void {
    this.#active?.stop.abort();
    this.#active = undefined;
  }

  async claim(pausePoint: PausePoint, decision: Decision, decidedBy: DecidedBy, signature?: DeviceSignature): Promise<ClaimOutcome> {
    const active = this.#active;
    if (!active) return { outcome: 'local' };
    const outcome = await claimDecision(active.ctx, pausePoint, decision, decidedBy, signature);
    // Queued: the leader sends it when the server answers again.
    if (outcome.outcome === 'queued') active.replicator.poke();
    return outcome;
  }

  async requestStop(conversationId: string): Promise<void> {
    const active = this.#active;
    if (!active) return;
    const sealed = await active.ctx.sealed.seal({ v: 1, kind: 'stop', id: crypto.randomUUID(), n: 1, from: this.options.deviceId, record: { conversationId, requestedBy: this.options.deviceId } });
    await active.ctx.client.createDocument(sealed._id, { e: sealed.e });
  }

  async turnOn(input: TurnOnSync): Promise<SyncResult> {
    const joining = { deviceId: this.options.deviceId, identity: await deviceIdentity(this.db) };
    return this.#setUp(() => setUpWithPassphrase(input, this.#now(), (c) => this.#client(c), joining));
  }

  async join(input: JoinWithPairing): Promise<SyncResult> {
    const joining = { deviceId: this.options.deviceId, identity: await deviceIdentity(this.db) };
    return this.#setUp(() => joinWithPairing(input, joining, this.#now(), (c) => this.#client(c)));
  }

  async #setUp(make: () => Promise<SyncSetup>): Promise<SyncResult> {
    let setup: SyncSetup;
    try {
      setup = await make();
    } catch (error) {
      if (error instanceof SetupRefused) return { ok: false, refusal: error.refusal };
      throw error;
    }
    this.stop();
    // The log first: another tab that starts on the new settings must find it.
    await appendStoredLog(this.db, setup.config.database, setup.membership.entries, true);
    await storeSyncSetup(this.db, setup.config, setup.vault);
    await storeFloors(this.db, setup.heads);
    await this.#activate(setup);
    return { ok: true };
  }

  async turnOff(): Promise<void> {
    this.stop();
    await forgetSync(this.db);
  }

  async addDevice(): Promise<PairingInvite> {
    const active = this.#active;
    if (!active) throw new Error('Turn on sync before adding a device.');
    const heads = await publishHeads(active.ctx);
    const { identity, membership } = active;
    return invite(active.config, active.vault, { deviceId: this.options.deviceId, name: active.config.deviceName, identity, membership: membership.state }, this.options.origin, this.#now(), heads);
  }

  /**
   * `Remove`: a signed entry of the membership log that removes the device
   * and rotates the data key to the devices that stay (so the removed one can
   * read nothing written after, and nothing it signs counts any more); the
   * removed device, when it reads this, forgets the server and the key. If
   * another member's entry took the same place in the log, it is read and
   * the removal written again after it.
   */
  async removeDevice(deviceId: string): Promise<void> {
    const active = this.#active;
    if (!active) throw new Error('Turn on sync before removing a device.');
    if (deviceId === this.options.deviceId) throw new Error('This device cannot remove itself: use Turn off sync.');
    const { membership } = active;
    let rotated: { epoch: number; raw: Uint8Array<ArrayBuffer> } | undefined;
    const followed = await appendEntry(active.ctx.client, membership.state, membership.followOptions((epoch, raw) => (rotated = { epoch, raw })), (state) =>
      this.#removeEntry(active, deviceId, state),
    );
    const news = await membership.adopt(followed.state, followed.adopted, rotated);
    const device = await this.db.syncDevices.get(deviceId);
    if (device && !device.removed) await this.db.syncDevices.put({ ...device, removed: true });
    if (news.removedHere) return this.#forget('Another device removed this one from sync: everything stays here, and nothing syncs.');
    if (!news.rotated) return;
    const written = followed.written;
    if (written?.op === 'remove') await this.#moveCheck(active, written.check);
    await this.#rotated(news.rotated.raw, news.rotated.epoch);
  }

  /** The parameters' check under the new key, so a passphrase (the first key) is told it no longer opens this database. Best effort: the log is what counts. */
  async #moveCheck(active: Active, check: unknown): Promise<void> {
    try {
      const params = await active.ctx.client.getDocument(PARAMS_ID);
      if (!params) return;
      const { _id: _ignored, _rev: rev, ...fields } = params;
      await active.ctx.client.putDocument(PARAMS_ID, rev, { ...fields, check });
    } catch (error) {
      console.warn('Pausepoint: the sync parameters kept the old check', error);
    }
  }

  async renameDevice(name: string): Promise<void> {
    await this.db.transaction('rw', this.db.settings, async () => {
      const config = await readSyncConfig(this.db);
      if (config) await this.db.settings.put({ key: SYNC_CONFIG_KEY, value: { ...config, deviceName: name } satisfies SyncConfig });
    });
    if (this.#active) {
      this.#active.config = { ...this.#active.config, deviceName: name };
      this.#active.ctx.device.name = name;
      this.#active.replicator.poke();
    }
  }

  async retryNow(): Promise<void> {
    if (!this.#active) return;
    await writeSyncStatus(this.db, 'connecting');
    this.#active.replicator.retryNow();
  }
}

function sameServer(a: SyncConfig, b: SyncConfig): boolean {
  return a.serverUrl === b.serverUrl && a.database === b.database && a.username === b.username && a.password === b.password && a.since === b.since;
}

async function keysOf(vault: Vault, sealed: SealedDataKey): Promise<SyncKeys> {
  const raw = await openForDevice(vault.vaultKey, sealed);
  const keys = await deriveSyncKeys(raw);
  raw.fill(0);
  return keys;
}

/** The keys rotations replaced, newest first, to recognise what was sealed under them. */
function previousKeys(vault: Vault): Promise<SyncKeys[]> {
  return Promise.all(vault.previous.map((sealed) => keysOf(vault, sealed)));
}
