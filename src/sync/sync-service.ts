import Dexie from 'dexie';
import type { Decision } from '../engine/decision.ts';
import type { ClaimOutcome } from '../engine/devices-port.ts';
import type { DecidedBy, DeviceSignature, PausePoint } from '../engine/records/index.ts';
import type { PausepointDb } from '../storage/db.ts';
import { deriveSyncKeys, newDataKey, type SyncKeys } from './crypto/data-key.ts';
import { openForDevice, sealForDevice, type SealedDataKey } from './crypto/device-vault.ts';
import { sealDocument } from './crypto/envelope.ts';
import { grantKey, newAgreementKeys, openGrant, type KeyGrant } from './crypto/key-grant.ts';
import { CouchClient } from './couch/couch-client.ts';
import { claimDecision } from './decision-claims.ts';
import type { SyncConfig } from './records/sync-records.ts';
import { Replicator, type ReplicatorHooks } from './replicator.ts';
import { publishHeads, storeFloors } from './rollback-heads.ts';
import { SealedDocuments } from './sealed-documents.ts';
import type { SyncContext } from './sync-context.ts';
import type { JoinWithPairing, PairingInvite, SyncResult, TurnOnSync } from './sync-control.ts';
import { CHECK, invite, joinWithPairing, PARAMS_ID, SetupRefused, setUpWithPassphrase, type SyncSetup } from './sync-setup.ts';
import { grantContext, type Rotation } from './sync-document.ts';
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
  replicator: Replicator;
  stop: AbortController;
}

export function createSyncService(db: PausepointDb, options: SyncServiceOptions): SyncService {
  return new SyncSession(db, options);
}

class SyncSession implements SyncService {
  #active: Active | undefined;
  #starting: Promise<void> | null = null;
  readonly #now: () => number;

  constructor(
    private readonly db: PausepointDb,
    private readonly options: SyncServiceOptions,
  ) {
    this.#now = options.now ?? Date.now;
    Dexie.on('storagemutated', (parts) => {
      if (this.#active && Object.keys(parts).some((key) => key === 'all' || WATCHED.test(key))) this.#active.replicator.poke();
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
    const config = await readSyncConfig(this.db);
    const vault = config?.on ? await readVault(this.db) : undefined;
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
    this.#activate({ config, vault: withKeys, keys: await keysOf(withKeys, withKeys.sealed), client: this.#client(config) }, await previousKeys(withKeys));
  }

  #activate({ config, vault, keys, client }: SyncSetup, previous: readonly SyncKeys[] = []): void {
    const ctx: SyncContext = {
      db: this.db,
      client,
      sealed: new SealedDocuments(keys, config.database, previous),
      device: { id: this.options.deviceId, name: config.deviceName },
      since: config.since,
      epoch: vault.epoch,
      ...(vault.agreement ? { publicKey: vault.agreement.publicKey } : {}),
      now: this.#now,
    };
    const replicator = new Replicator(ctx, this.options.hooks, {
      removed: () => this.#forget('Another device removed this one from sync: everything stays here, and nothing syncs.'),
      rotated: (rotation) => this.#takeRotation(rotation),
    });
    const stop = new AbortController();
    this.#active = { config, vault, ctx, replicator, stop };
    void this.options
      .lead((signal) => replicator.run(signal), stop.signal)
      .catch((error: unknown) => console.error('Pausepoint: sync stopped', error));
  }

  async #forget(why: string): Promise<void> {
    this.stop();
    await forgetSync(this.db, why);
  }

  /**
   * A rotation read from the feed: the new key is this device's grant,
   * opened with its private key. No grant (or one that does not open) means
   * this device was removed.
   */
  async #takeRotation(rotation: Rotation): Promise<void> {
    const active = this.#active;
    if (!active) return;
    const { vault, config } = active;
    const grant = rotation.grants[this.options.deviceId];
    const raw = grant && vault.agreement ? await openGrant(grant, vault.agreement.privateKey, grantContext(config.database, rotation.epoch, this.options.deviceId)) : undefined;
    if (!raw) return this.#forget('This device was removed from sync on another device: everything stays here, and nothing syncs.');
    await this.#rotated(raw, rotation.epoch);
  }

  /** Starts again under a rotated key: everything this device writes is pushed again, under the new key's ids. */
  async #rotated(raw: Uint8Array, epoch: number): Promise<void> {
    const active = this.#active;
    if (!active) return;
    const { vault, config } = active;
    const rotated: Vault = { ...vault, sealed: await sealForDevice(vault.vaultKey, raw), epoch, previous: [vault.sealed, ...vault.previous] };
    const keys = await deriveSyncKeys(raw);
    raw.fill(0);
    const previous = await previousKeys(rotated);
    this.stop();
    await storeRotatedVault(this.db, rotated);
    this.#activate({ config, vault: rotated, keys, client: this.#client(config) }, previous);
  }

  /**
   * A new data key, granted to every device that stays (those whose public
   * key is known), sealed in a rotation document under the key it replaces;
   * the parameters' check moves to the new key. A device removed, or left out,
   * can read neither the grants nor anything sealed after.
   */
  async #rotate(active: Active, removed: string): Promise<void> {
    const { vault, config, ctx } = active;
    const me = this.options.deviceId;
    const epoch = vault.epoch + 1;
    const raw = newDataKey();
    const keys = await deriveSyncKeys(raw);
    const staying = (await this.db.syncDevices.toArray()).filter((d) => !d.removed && d.id !== removed && d.id !== me && d.publicKey);
    const grants: Record<string, KeyGrant> = {};
    for (const device of staying) grants[device.id] = await grantKey(raw, device.publicKey!, grantContext(config.database, epoch, device.id));
    if (vault.agreement) grants[me] = await grantKey(raw, vault.agreement.publicKey, grantContext(config.database, epoch, me));
    const check = await sealDocument(keys, { database: config.database, docId: PARAMS_ID }, CHECK);
    const sealed = await ctx.sealed.seal({ v: 1, kind: 'rotation', id: String(epoch), n: 1, from: me, record: { epoch, removed, check, grants } });
    // Two removals at once: the other's rotation was first, and reaches this device through the feed.
    if ((await ctx.client.createDocument(sealed._id, { e: sealed.e })).outcome === 'conflict') return;
    const params = await ctx.client.getDocument(PARAMS_ID);
    if (params) {
      const { _id: _ignored, _rev: rev, ...fields } = params;
      await ctx.client.putDocument(PARAMS_ID, rev, { ...fields, epoch, check });
    }
    await this.#rotated(raw, epoch);
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
    return this.#setUp(() => setUpWithPassphrase(input, this.#now(), (c) => this.#client(c)));
  }

  async join(input: JoinWithPairing): Promise<SyncResult> {
    return this.#setUp(() => joinWithPairing(input, this.options.deviceId, this.#now(), (c) => this.#client(c)));
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
    await storeSyncSetup(this.db, setup.config, setup.vault);
    await storeFloors(this.db, setup.heads);
    this.#activate(setup);
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
    return invite(active.config, active.vault, { deviceId: this.options.deviceId, name: active.config.deviceName }, this.options.origin, this.#now(), heads);
  }

  /**
   * `Remove`: every device stops taking the removed one's documents, and the
   * removed device, when it reads this, forgets the server and the key. The
   * data key itself is not rotated yet: a removed device that ignores its
   * removal could still open what is written after.
   */
  /**
   * `Remove`: every device stops taking the removed one's documents, the
   * data key is rotated to the devices that stay (so the removed one can read
   * nothing written after), and the removed device, when it reads this,
   * forgets the server and the key.
   */
  async removeDevice(deviceId: string): Promise<void> {
    const active = this.#active;
    if (!active) throw new Error('Turn on sync before removing a device.');
    if (deviceId === this.options.deviceId) throw new Error('This device cannot remove itself: use Turn off sync.');
    const sealed = await active.ctx.sealed.seal({ v: 1, kind: 'removal', id: deviceId, n: 1, from: this.options.deviceId, record: { deviceId, removedBy: this.options.deviceId } });
    // Created once: a second Remove of the same device (409) changes nothing.
    await active.ctx.client.createDocument(sealed._id, { e: sealed.e });
    const device = await this.db.syncDevices.get(deviceId);
    if (device) await this.db.syncDevices.put({ ...device, removed: true });
    await this.#rotate(active, deviceId);
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
