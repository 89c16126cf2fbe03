import type { CouchClient } from './couch/couch-client.ts';
import { CouchError } from './couch/couch-error.ts';
import { fromBase64Url, toBase64Url } from './crypto/base64url.ts';
import { WrappedKeyError, WrongPassphraseError, PairingError } from './crypto/crypto-errors.ts';
import { deriveSyncKeys, newDataKey, type SyncKeys } from './crypto/data-key.ts';
import { newVaultKey, openForDevice, sealForDevice } from './crypto/device-vault.ts';
import { openDocument, sealDocument } from './crypto/envelope.ts';
import { newAgreementKeys } from './crypto/key-grant.ts';
import { openPairing, sealPairing } from './crypto/pairing-blob.ts';
import { newPairingCode } from './crypto/pairing-code.ts';
import { PAIRING_TTL_MS, pairingLink } from './crypto/pairing-link.ts';
import { unwrapWithPassphrase, WrappedKey, wrapWithPassphrase } from './crypto/passphrase-key.ts';
import { passphraseContext } from './passphrase/passphrase-context.ts';
import { passphraseStrength } from './passphrase/passphrase-strength.ts';
import type { SyncConfig } from './records/sync-records.ts';
import { readHeads, type Heads } from './rollback-heads.ts';
import { SealedDocuments } from './sealed-documents.ts';
import type { JoinWithPairing, PairingInvite, SyncRefusal, TurnOnSync } from './sync-control.ts';
import type { Vault } from './sync-store.ts';

/**
 * The one document of a sync database in the clear: the data key wrapped
 * under the passphrase (PBKDF2, its salt and count), and a check sealed
 * under the data key, which tells a key that opens this database from one
 * that does not. Created once, with a compare-and-set, so two first devices
 * cannot both set it: the second reads the first's and must know its passphrase.
 */
export const PARAMS_ID = 'pausepoint-params';
export const CHECK = { v: 1, check: 'pausepoint-sync' } as const;

export class SetupRefused extends Error {
  override readonly name = 'SetupRefused';
  constructor(readonly refusal: SyncRefusal) {
    super(refusal.message);
  }
}

/** What a device needs to sync, once it has set up or joined: nothing of it is written before it is all known. */
export interface SyncSetup {
  config: SyncConfig;
  vault: Vault;
  keys: SyncKeys;
  client: CouchClient;
  /** A pairing link's heads, read and checked (rollback-heads.ts): stored as floors before anything is applied. */
  heads?: Heads;
}

/** Makes the client for a server and database (the service's, with its fetch). */
export type ClientFor = (where: Pick<SyncConfig, 'serverUrl' | 'database' | 'username' | 'password'>) => CouchClient;

function refused(kind: SyncRefusal['kind'], message: string): never {
  throw new SetupRefused({ kind, message });
}

/** A server's refusal as a setup refusal, with what to do. */
function asRefusal(error: unknown): never {
  if (!(error instanceof CouchError)) throw error;
  switch (error.kind) {
    case 'unreachable':
    case 'timeout':
      return refused('unreachable', `The sync server could not be reached: ${error.message}`);
    case 'cors':
      return refused('cors', 'The sync server refuses requests from this page (CORS): allow this origin in its settings.');
    case 'unauthorized':
      return refused('unauthorized', 'The sync server refused the user name or password.');
    case 'forbidden':
      return refused('forbidden', 'This user may not use that database on the sync server.');
    case 'no_database':
      return refused('no_database', 'The database does not exist on the sync server.');
    default:
      return refused('error', error.message);
  }
}

export async function checkParams(keys: SyncKeys, database: string, check: unknown): Promise<boolean> {
  try {
    const opened = await openDocument(keys, { database, docId: PARAMS_ID }, check);
    return typeof opened === 'object' && opened !== null && (opened as { check?: unknown }).check === CHECK.check;
  } catch {
    return false;
  }
}

/**
 * Refuses, before anything is written, a passphrase one GPU offline guesses in
 * under a year (passphrase-strength.ts `MIN_GUESSES`): the server holds the
 * data key wrapped under it. The page shows the same measure as it is typed,
 * but this is where it holds, whatever sends `turnOn`.
 */
async function refuseWeakPassphrase({ passphrase, username, serverUrl, database, deviceName }: TurnOnSync): Promise<void> {
  const strength = await passphraseStrength(passphrase, passphraseContext({ username, serverUrl, database, deviceName }));
  if (!strength.strong) refused('weak_passphrase', `This passphrase is too weak for a new sync database. ${strength.text} Nothing was changed.`);
}

async function vaultFor(raw: Uint8Array, epoch = 1): Promise<Vault> {
  const vaultKey = await newVaultKey();
  return { v: 1, vaultKey, sealed: await sealForDevice(vaultKey, raw), epoch, previous: [], agreement: await newAgreementKeys() };
}

/**
 * `Turn on sync` with a passphrase: on the first device it makes the data
 * key and the parameters document; on a later one it unwraps the key from it
 * (a wrong passphrase writes nothing, here or there).
 */
export async function setUpWithPassphrase(input: TurnOnSync, now: number, clientFor: ClientFor): Promise<SyncSetup> {
  const { serverUrl, database, username, password, passphrase, deviceName } = input;
  const client = clientFor({ serverUrl, database, username, password });
  try {
    await client.databaseInfo();
  } catch (error) {
    if (!(error instanceof CouchError && error.kind === 'no_database' && input.createDatabase)) asRefusal(error);
    // A new database: its key will be wrapped under this passphrase, so it is measured before anything is made.
    await refuseWeakPassphrase(input);
    await client.createDatabase().catch(asRefusal);
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    const params = await client.getDocument(PARAMS_ID).catch(asRefusal);
    if (params) {
      // The passphrase wraps the first data key only: a device removed since got a new one to the others, not to it.
      if (epochOf(params) > 1) refused('error', 'The key of this sync database was changed when a device was removed: pair this device from one that syncs (Settings › Devices › Add a device).');
      const wrapped = WrappedKey.safeParse(params['wrapped']);
      if (!wrapped.success) refused('error', 'The database holds sync parameters this version cannot read.');
      const raw = await unwrapWithPassphrase(wrapped.data, passphrase).catch((error: unknown) => {
        if (error instanceof WrongPassphraseError) refused('wrong_passphrase', 'Wrong passphrase: it does not open the data on this sync server. Nothing was changed.');
        if (error instanceof WrappedKeyError) refused('error', `The sync parameters on the server are unsafe: ${error.message}`);
        throw error;
      });
      const keys = await deriveSyncKeys(raw);
      if (!(await checkParams(keys, database, params['check']))) refused('wrong_passphrase', 'The passphrase opened a key that does not open this database.');
      return { client, keys, vault: await vaultFor(raw), config: configOf(input, deviceName, now) };
    }
    // The first device: the passphrase about to wrap the data key must hold a year offline. A later device's passphrase
    // is the one the database already has, and is never refused for its strength (above).
    await refuseWeakPassphrase(input);
    const raw = newDataKey();
    const keys = await deriveSyncKeys(raw);
    const body = { wrapped: await wrapWithPassphrase(raw, passphrase), check: await sealDocument(keys, { database, docId: PARAMS_ID }, CHECK) };
    const created = await client.createDocument(PARAMS_ID, body).catch(asRefusal);
    // Another first device was quicker: its key is the one, and this passphrase must open it.
    if (created.outcome === 'conflict') continue;
    return { client, keys, vault: await vaultFor(raw), config: configOf(input, deviceName, now) };
  }
  return refused('error', 'The sync parameters changed twice while this device set up: try again.');
}

function configOf(where: Pick<SyncConfig, 'serverUrl' | 'database' | 'username' | 'password'>, deviceName: string, now: number): SyncConfig {
  const { serverUrl, database, username, password } = where;
  return { v: 1, on: true, serverUrl, database, username, password, deviceName, since: now };
}

/**
 * `Join` with a pairing link and its code: the link holds the server, its
 * credentials and the data key, sealed under the code. It works once (the
 * first device to create its `pairingUsed` document joined with it) and for
 * 15 minutes by the inviting device's clock.
 */
export async function joinWithPairing(input: JoinWithPairing, deviceId: string, now: number, clientFor: ClientFor): Promise<SyncSetup> {
  const payload = await openPairing(input.blob, input.code).catch((error: unknown) => {
    if (error instanceof PairingError) {
      if (error.kind === 'wrong_code') refused('wrong_code', 'That pairing code does not open this link: check it on the other device.');
      refused('bad_link', 'This pairing link is damaged or incomplete: copy it again from the other device.');
    }
    throw error;
  });
  if (now > payload.expiresAt) refused('link_expired', 'This pairing link has expired: on the other device, press Add a device for a new one.');
  const { serverUrl, database, username, password } = payload;
  const client = clientFor({ serverUrl, database, username, password });
  await client.databaseInfo().catch(asRefusal);
  const raw = fromBase64Url(payload.dataKey);
  const keys = await deriveSyncKeys(raw);
  const params = await client.getDocument(PARAMS_ID).catch(asRefusal);
  if (!params || !(await checkParams(keys, database, params['check']))) refused('bad_link', 'The key in this pairing link does not open the database on the sync server.');
  // What the inviting device held: missing or altered, the server is rolling this device back, and it does not join.
  const heads = payload.heads === undefined ? undefined : await readHeads(client, new SealedDocuments(keys, database), payload.heads).catch(asRefusal);
  if (payload.heads !== undefined && !heads) refused('bad_link', 'The sync server does not hold what the other device holds: it may be serving an old copy. Try again once the other device has synced.');
  const sealed = await new SealedDocuments(keys, database).seal({ v: 1, kind: 'pairingUsed', id: payload.pairingId, n: 1, from: deviceId, record: { deviceId } });
  const used = await client.createDocument(sealed._id, { e: sealed.e }).catch(asRefusal);
  if (used.outcome === 'conflict') refused('link_used', 'This pairing link was used already: on the other device, press Add a device for a new one.');
  return { client, keys, vault: await vaultFor(raw, epochOf(params)), config: configOf(payload, input.deviceName, now), ...(heads ? { heads } : {}) };
}

/** How many times the data key was rotated: the parameters document says (1 before any rotation). */
export function epochOf(params: Record<string, unknown>): number {
  const epoch = params['epoch'];
  return typeof epoch === 'number' && Number.isInteger(epoch) && epoch > 0 ? epoch : 1;
}

/** `Add a device`: a link holding everything the new device needs, sealed under a fresh code. */
export async function invite(config: SyncConfig, vault: Vault, inviter: { deviceId: string; name: string }, origin: string, now: number, heads?: string): Promise<PairingInvite> {
  const raw = await openForDevice(vault.vaultKey, vault.sealed);
  const code = newPairingCode();
  const expiresAt = now + PAIRING_TTL_MS;
  const { serverUrl, database, username, password } = config;
  const blob = await sealPairing(
    { v: 1, serverUrl, database, username, password, dataKey: toBase64Url(raw), pairingId: crypto.randomUUID(), expiresAt, inviter, ...(heads ? { heads } : {}) },
    code,
  );
  raw.fill(0);
  return { link: pairingLink(origin, blob), code, expiresAt };
}
