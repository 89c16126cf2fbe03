import { z } from 'zod';
import type { PausepointDb } from '../storage/db.ts';
import { SealedDataKey } from './crypto/device-vault.ts';
import { requeueUnapplied } from './decision-claims.ts';
import { PublicKeyJwk } from '../storage/records/public-key-jwk.ts';
import { SyncConfig, SyncStatus, type SyncStatusKind } from '../storage/records/sync-records.ts';

/**
 * The settings rows of sync. None is in backups (a backup reads the
 * `settings` row only): the server's password, the sealed data key and the
 * key that opens it stay on this device.
 */
export const SYNC_CONFIG_KEY = 'sync';
export const SYNC_STATUS_KEY = 'syncStatus';
const VAULT_KEY = 'syncVault';
const CHECKPOINT_KEY = 'syncCheckpoint';

/**
 * The data key at rest: sealed under a non-extractable key of this device's
 * own, stored beside it as a `CryptoKey` (IndexedDB keeps it opaque: script
 * can use it, never read it out). `epoch` counts the data key's rotations
 * (one per removed device); `previous` holds the keys it replaced, only to
 * recognise documents sealed before a rotation, which are never applied.
 * `agreement` is this device's ECDH key pair, for rotations' grants.
 */
const Vault = z.object({
  v: z.literal(1),
  vaultKey: z.instanceof(CryptoKey),
  sealed: SealedDataKey,
  epoch: z.number().int().positive().default(1),
  previous: z.array(SealedDataKey).default([]),
  agreement: z.object({ privateKey: z.instanceof(CryptoKey), publicKey: PublicKeyJwk }).optional(),
});
export type Vault = z.infer<typeof Vault>;

export async function readSyncConfig(db: PausepointDb): Promise<SyncConfig | undefined> {
  const row = await db.settings.get(SYNC_CONFIG_KEY);
  if (!row) return undefined;
  const parsed = SyncConfig.safeParse(row.value);
  if (!parsed.success) console.warn('Pausepoint: the stored sync settings are unreadable; sync stays off.', parsed.error.message);
  return parsed.success ? parsed.data : undefined;
}

/** The vault as it is now (a device key pair added to one made before devices had them). */
export async function writeVault(db: PausepointDb, vault: Vault): Promise<void> {
  await db.settings.put({ key: VAULT_KEY, value: vault });
}

/**
 * A rotation's new key: the sealed key and the epoch change; what was pushed and seen under the old key says nothing now,
 * and this device's claims the owner has not applied go again under the new key (decision-claims.ts `requeueUnapplied`).
 */
export async function storeRotatedVault(db: PausepointDb, vault: Vault): Promise<void> {
  await db.transaction('rw', [db.settings, db.syncDocs, db.remoteDecisions, db.pausePoints], async () => {
    await db.settings.put({ key: VAULT_KEY, value: vault });
    await db.syncDocs.clear();
    await requeueUnapplied(db);
  });
}

export async function readVault(db: PausepointDb): Promise<Vault | undefined> {
  const parsed = Vault.safeParse((await db.settings.get(VAULT_KEY))?.value);
  return parsed.success ? parsed.data : undefined;
}

/** Turning sync on or joining: the settings and the sealed key, one transaction, the checkpoint from the start. */
export async function storeSyncSetup(db: PausepointDb, config: SyncConfig, vault: Vault): Promise<void> {
  await db.transaction('rw', db.settings, db.syncDocs, db.remoteDecisions, async () => {
    await db.settings.bulkPut([
      { key: SYNC_CONFIG_KEY, value: config },
      { key: VAULT_KEY, value: vault },
      { key: SYNC_STATUS_KEY, value: { v: 1, kind: 'connecting', at: Date.now(), skipped: 0 } satisfies SyncStatus },
    ]);
    await db.settings.delete(CHECKPOINT_KEY);
    // Another server (or database) means other documents: what was pushed and seen there says nothing here.
    await db.syncDocs.clear();
    await db.remoteDecisions.where('state').equals('queued').delete();
  });
}

/** `Turn off sync`: forgets the server, its password and the key; every record stays here. */
export async function forgetSync(db: PausepointDb, why?: string): Promise<void> {
  await db.transaction('rw', db.settings, async () => {
    await db.settings.bulkDelete([VAULT_KEY, CHECKPOINT_KEY]);
    const status: SyncStatus = { v: 1, kind: 'off', at: Date.now(), skipped: 0, ...(why ? { message: why } : {}) };
    await db.settings.put({ key: SYNC_STATUS_KEY, value: status });
    await db.settings.delete(SYNC_CONFIG_KEY);
  });
}

export async function readCheckpoint(db: PausepointDb): Promise<string | undefined> {
  const value = (await db.settings.get(CHECKPOINT_KEY))?.value;
  return typeof value === 'string' ? value : undefined;
}

export async function writeCheckpoint(db: PausepointDb, seq: string): Promise<void> {
  await db.settings.put({ key: CHECKPOINT_KEY, value: seq });
}

export async function readSyncStatus(db: PausepointDb): Promise<SyncStatus | undefined> {
  const parsed = SyncStatus.safeParse((await db.settings.get(SYNC_STATUS_KEY))?.value);
  return parsed.success ? parsed.data : undefined;
}

/** The status line's record; `skipped` adds up across pages until sync is set up again. */
export async function writeSyncStatus(
  db: PausepointDb,
  kind: SyncStatusKind,
  more: { message?: string; progress?: { done: number; total: number }; skipped?: number } = {},
): Promise<void> {
  await db.transaction('rw', db.settings, async () => {
    const before = await readSyncStatus(db);
    const status: SyncStatus = {
      v: 1,
      kind,
      at: Date.now(),
      ...(more.message ? { message: more.message } : {}),
      ...(more.progress ? { progress: more.progress } : {}),
      skipped: (before?.skipped ?? 0) + (more.skipped ?? 0),
    };
    await db.settings.put({ key: SYNC_STATUS_KEY, value: status });
  });
}
