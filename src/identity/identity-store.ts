import { z } from 'zod';
import type { PausepointDb } from '../storage/db.ts';
import { newDeviceIdentity, type DeviceIdentity } from './device-identity.ts';
import { keyIdOf, SigningKeyJwk } from './signing-key-jwk.ts';

/**
 * The settings row that holds this device's signing key pair. Its private key
 * is a non-extractable CryptoKey stored as the object itself (IndexedDB keeps
 * it opaque, as it does the sync vault's key). Not in backups (a backup reads
 * the `settings` row only) and not forgotten by Turn off sync: the key is the
 * device's, with sync or without, so every decision it ever made verifies
 * against one key.
 */
export const IDENTITY_KEY = 'deviceIdentity';

const StoredIdentity = z.object({
  v: z.literal(1),
  publicKey: SigningKeyJwk,
  privateKey: z.instanceof(CryptoKey),
});

/**
 * This device's identity, made at its first start. Two tabs starting at once
 * may each make a key pair; the transaction keeps the first one stored, and
 * both answer with it.
 */
export async function deviceIdentity(db: PausepointDb): Promise<DeviceIdentity> {
  const stored = await readIdentity(db);
  if (stored) return stored;
  // Made outside the transaction: IndexedDB commits a transaction whose callback awaits anything but its own requests.
  const made = await newDeviceIdentity();
  const row = { v: 1, publicKey: made.publicKey, privateKey: made.privateKey } satisfies z.infer<typeof StoredIdentity>;
  return db.transaction('rw', db.settings, async () => {
    const first = parse((await db.settings.get(IDENTITY_KEY))?.value);
    if (first) return first;
    await db.settings.put({ key: IDENTITY_KEY, value: row });
    return made;
  });
}

export async function readIdentity(db: PausepointDb): Promise<DeviceIdentity | undefined> {
  return parse((await db.settings.get(IDENTITY_KEY))?.value);
}

function parse(value: unknown): DeviceIdentity | undefined {
  const parsed = StoredIdentity.safeParse(value);
  if (!parsed.success) return undefined;
  const { publicKey, privateKey } = parsed.data;
  return { keyId: keyIdOf(publicKey), publicKey, privateKey };
}
