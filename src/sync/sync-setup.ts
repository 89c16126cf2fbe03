import type { CouchClient } from './couch/couch-client.ts';
import { CouchError } from './couch/couch-error.ts';
import { fromBase64Url, toBase64Url } from './crypto/base64url.ts';
import { WrappedKeyError, WrongPassphraseError, PairingError } from './crypto/crypto-errors.ts';
import { deriveSyncKeys, newDataKey, type SyncKeys } from './crypto/data-key.ts';
import { newVaultKey, openForDevice, sealForDevice } from './crypto/device-vault.ts';
import { openDocument, sealDocument } from './crypto/envelope.ts';
import { newAgreementKeys, type AgreementKeys } from './crypto/key-grant.ts';
import { openPairing, sealPairing } from './crypto/pairing-blob.ts';
import { newPairingCode } from './crypto/pairing-code.ts';
import { PAIRING_TTL_MS, pairingLink } from './crypto/pairing-link.ts';
import { unwrapWithPassphrase, WrappedKey, wrapWithPassphrase } from './crypto/passphrase-key.ts';
import { passphraseContext } from './passphrase/passphrase-context.ts';
import { passphraseStrength } from './passphrase/passphrase-strength.ts';
import type { SyncConfig } from '../storage/records/sync-records.ts';
import { readHeads, type Heads } from './rollback-heads.ts';
import { SealedDocuments } from './sealed-documents.ts';
import type { JoinWithPairing, PairingInvite, SyncRefusal, TurnOnSync } from './sync-control.ts';
import type { Vault } from './sync-store.ts';
import type { DeviceIdentity } from '../identity/device-identity.ts';
import { keyIdOf } from '../identity/signing-key-jwk.ts';
import { EnterRefused, enterLog, type EnterOptions } from './membership/enter-log.ts';
import type { MembershipEntry } from './membership/membership-entry.ts';
import { MembershipError } from './membership/membership-log.ts';
import { currentKeyOf, type MembershipState } from './membership/membership-state.ts';

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
  /** The membership log from its start, this device a member in it. */
  membership: { entries: MembershipEntry[]; state: MembershipState };
}

/** The device setting up: its id and signing key (src/identity). */
export interface Joining {
  deviceId: string;
  identity: DeviceIdentity;
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

async function vaultFor(raw: Uint8Array, epoch: number, agreement: AgreementKeys): Promise<Vault> {
  const vaultKey = await newVaultKey();
  return { v: 1, vaultKey, sealed: await sealForDevice(vaultKey, raw), epoch, previous: [], agreement };
}

const PAIR_FROM_A_MEMBER = 'The key of this sync database was changed when a device was removed: pair this device from one that syncs (Settings › Devices › Add a device).';

/** This device into the membership log, with what to do when it cannot be. */
async function entered(options: Omit<EnterOptions, 'self'> & { joining: Joining; agreement: AgreementKeys }): ReturnType<typeof enterLog> {
  const { joining, agreement, ...rest } = options;
  try {
    return await enterLog({ ...rest, self: { deviceId: joining.deviceId, identity: joining.identity, agreementKey: agreement.publicKey } });
  } catch (error) {
    if (error instanceof EnterRefused) {
      if (error.kind === 'epoch' && rest.trustedHead) refused('link_expired', 'The devices changed since this link was made: on the other device, press Add a device for a new one.');
      if (error.kind === 'epoch') refused('error', PAIR_FROM_A_MEMBER);
      refused('error', `${error.message} Pair it again from a device that syncs.`);
    }
    if (error instanceof MembershipError) refused('bad_link', `${error.message} Nothing was changed.`);
    if (error instanceof CouchError) asRefusal(error);
    throw error;
  }
}

/**
 * `Turn on sync` with a passphrase: on the first device it makes the data
 * key and the parameters document, and founds the membership log; on a
 * later one it unwraps the key from it and adds itself to the log (a wrong
 * passphrase writes nothing, here or there). The passphrase wraps the first
 * data key only: once a device was removed, the log's epoch says the key
 * changed, and only pairing from a member brings the new one.
 */
export async function setUpWithPassphrase(input: TurnOnSync, now: number, clientFor: ClientFor, joining: Joining): Promise<SyncSetup> {
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
  const agreement = await newAgreementKeys();
  for (let attempt = 0; attempt < 2; attempt++) {
    const params = await client.getDocument(PARAMS_ID).catch(asRefusal);
    if (params) {
      const wrapped = WrappedKey.safeParse(params['wrapped']);
      if (!wrapped.success) refused('error', 'The database holds sync parameters this version cannot read.');
      const raw = await unwrapWithPassphrase(wrapped.data, passphrase).catch((error: unknown) => {
        if (error instanceof WrongPassphraseError) refused('wrong_passphrase', 'Wrong passphrase: it does not open the data on this sync server. Nothing was changed.');
        if (error instanceof WrappedKeyError) refused('error', `The sync parameters on the server are unsafe: ${error.message}`);
        throw error;
      });
      const keys = await deriveSyncKeys(raw);
      const check = params['check'];
      const membership = await entered({
        client,
        joining,
        agreement,
        keys,
        epoch: 1,
        now,
        beforeWriting: async () => {
          if (!(await checkParams(keys, database, check))) refused('wrong_passphrase', 'The passphrase opened a key that does not open this database.');
        },
      });
      return { client, keys, vault: await vaultFor(raw, 1, agreement), config: configOf(input, deviceName, now), membership };
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
    const membership = await entered({ client, joining, agreement, keys, epoch: 1, now });
    return { client, keys, vault: await vaultFor(raw, 1, agreement), config: configOf(input, deviceName, now), membership };
  }
  return refused('error', 'The sync parameters changed twice while this device set up: try again.');
}

function configOf(where: Pick<SyncConfig, 'serverUrl' | 'database' | 'username' | 'password'>, deviceName: string, now: number): SyncConfig {
  const { serverUrl, database, username, password } = where;
  return { v: 1, on: true, serverUrl, database, username, password, deviceName, since: now };
}

/**
 * `Join` with a pairing link and its code: the link holds the server, its
 * credentials and the data key, sealed under the code, and the membership
 * log's head with the inviter's signing key: the log read from the server
 * must end in that head, so every key this device pins is one the inviter
 * vouched for, and the data key's epoch is the head's, never the clear
 * parameters'. It works once (the first device to create its `pairingUsed`
 * document joined with it) and for 15 minutes by the inviting device's clock.
 */
export async function joinWithPairing(input: JoinWithPairing, joining: Joining, now: number, clientFor: ClientFor): Promise<SyncSetup> {
  const payload = await openPairing(input.blob, input.code).catch((error: unknown) => {
    if (error instanceof PairingError) {
      if (error.kind === 'wrong_code') refused('wrong_code', 'That pairing code does not open this link: check it on the other device.');
      refused('bad_link', 'This pairing link is damaged or incomplete: copy it again from the other device.');
    }
    throw error;
  });
  if (now > payload.expiresAt) refused('link_expired', 'This pairing link has expired: on the other device, press Add a device for a new one.');
  const { membership: head, inviterKey } = payload;
  if (!head || !inviterKey) refused('bad_link', 'This pairing link was made by an older version of Pausepoint: update the other device, then press Add a device there again.');
  const { serverUrl, database, username, password } = payload;
  const client = clientFor({ serverUrl, database, username, password });
  await client.databaseInfo().catch(asRefusal);
  const raw = fromBase64Url(payload.dataKey);
  const keys = await deriveSyncKeys(raw);
  const params = await client.getDocument(PARAMS_ID).catch(asRefusal);
  if (!params || !(await checkParams(keys, database, params['check']))) refused('bad_link', 'The key in this pairing link does not open the database on the sync server.');
  const agreement = await newAgreementKeys();
  let heads: Heads | undefined;
  const membership = await entered({
    client,
    joining,
    agreement,
    keys,
    now,
    trustedHead: head,
    invitedBy: payload.inviter.deviceId,
    beforeWriting: async (state) => {
      const inviter = state.members.get(payload.inviter.deviceId);
      if (!inviter || inviter.removed || inviter.keyId !== keyIdOf(inviterKey)) refused('bad_link', 'The device that made this link is not a member of this sync database.');
      // What the inviting device held (signed by it, checked against the key the log pinned): missing or altered, the server
      // is rolling this device back, and it does not join.
      if (payload.heads !== undefined) {
        const members = { keyOf: (id: string) => currentKeyOf(state, id) };
        heads = await readHeads(client, new SealedDocuments(keys, database, [], { identity: joining.identity, members }), payload.heads).catch(asRefusal);
        if (!heads) refused('bad_link', 'The sync server does not hold what the other device holds: it may be serving an old copy. Try again once the other device has synced.');
      }
      const sealed = await new SealedDocuments(keys, database, [], { identity: joining.identity, members: { keyOf: () => undefined } }).seal({
        v: 1,
        kind: 'pairingUsed',
        id: payload.pairingId,
        n: 1,
        from: joining.deviceId,
        record: { deviceId: joining.deviceId },
      });
      const used = await client.createDocument(sealed._id, { e: sealed.e }).catch(asRefusal);
      if (used.outcome === 'conflict') refused('link_used', 'This pairing link was used already: on the other device, press Add a device for a new one.');
    },
  });
  return { client, keys, vault: await vaultFor(raw, membership.state.epoch, agreement), config: configOf(payload, input.deviceName, now), membership, ...(heads ? { heads } : {}) };
}

/** `Add a device`: a link holding everything the new device needs, sealed under a fresh code, with the log's head and this device's signing key. */
export async function invite(
  config: SyncConfig,
  vault: Vault,
  inviter: { deviceId: string; name: string; identity: DeviceIdentity; membership: MembershipState },
  origin: string,
  now: number,
  heads?: string,
): Promise<PairingInvite> {
  const raw = await openForDevice(vault.vaultKey, vault.sealed);
  const code = newPairingCode();
  const expiresAt = now + PAIRING_TTL_MS;
  const { serverUrl, database, username, password } = config;
  const { deviceId, name, identity, membership } = inviter;
  const blob = await sealPairing(
    {
      v: 1,
      serverUrl,
      database,
      username,
      password,
      dataKey: toBase64Url(raw),
      pairingId: crypto.randomUUID(),
      expiresAt,
      inviter: { deviceId, name },
      inviterKey: identity.publicKey,
      membership: { seq: membership.seq, hash: membership.head },
      ...(heads ? { heads } : {}),
    },
    code,
  );
  raw.fill(0);
  return { link: pairingLink(origin, blob), code, expiresAt };
}
