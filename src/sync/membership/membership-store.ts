import { z } from 'zod';
import type { SigningKeyJwk } from '../../identity/signing-key-jwk.ts';
import type { PausepointDb } from '../../storage/db.ts';
import { entryHash, MembershipEntry } from './membership-entry.ts';
import { foldAll, type MembershipState } from './membership-state.ts';

/**
 * The settings row `syncMembership`: the membership log as this device
 * adopted it, entry by entry (each checked when adopted, so folding it again
 * needs no key). Kept when sync is turned off: the audit export lists the
 * devices that vouched for its decisions. Not in backups (settings rows
 * are not).
 */
export const MEMBERSHIP_KEY = 'syncMembership';

const StoredMembership = z.object({ v: z.literal(1), database: z.string(), entries: z.array(MembershipEntry) });
type StoredMembership = z.infer<typeof StoredMembership>;

export async function readStoredLog(db: PausepointDb): Promise<StoredMembership | undefined> {
  const parsed = StoredMembership.safeParse((await db.settings.get(MEMBERSHIP_KEY))?.value);
  return parsed.success ? parsed.data : undefined;
}

/** The log of `database` as this device holds it, folded; undefined when it holds none for that database. */
export async function readMembershipState(db: PausepointDb, database: string): Promise<{ entries: MembershipEntry[]; state: MembershipState } | undefined> {
  const stored = await readStoredLog(db);
  if (!stored || stored.database !== database) return undefined;
  return { entries: stored.entries, state: foldAll(stored.entries) };
}

/**
 * Stores the log after `adopted` entries were added to what was stored. Two
 * workers may follow at once: the row only grows, and only along the chain
 * already stored (an entry whose `prev` is not the stored head is not stored).
 */
export async function appendStoredLog(db: PausepointDb, database: string, adopted: readonly MembershipEntry[], replace = false): Promise<void> {
  await db.transaction('rw', db.settings, async () => {
    const stored = replace ? undefined : await readStoredLog(db);
    const entries = stored && stored.database === database ? [...stored.entries] : [];
    for (const entry of adopted) {
      const last = entries.at(-1);
      if (entry.seq <= entries.length) continue;
      if (entry.seq !== entries.length + 1 || (last && entry.prev !== entryHash(last))) break;
      entries.push(entry);
    }
    await db.settings.put({ key: MEMBERSHIP_KEY, value: { v: 1, database, entries } satisfies StoredMembership });
  });
}

export interface MembershipMember {
  deviceId: string;
  /** The name that device gave itself in its own signed device document; its id until one arrived. */
  name: string;
  keyId: string;
  publicKey: SigningKeyJwk;
  removed: boolean;
}

/**
 * The membership log this device holds and the devices it names, for the
 * audit export: every device that ever joined, with the signing key the log
 * pinned for it. Empty when this device never synced.
 */
export async function readMembership(db: PausepointDb): Promise<{ entries: MembershipEntry[]; members: MembershipMember[] }> {
  const stored = await readStoredLog(db);
  if (!stored) return { entries: [], members: [] };
  const state = foldAll(stored.entries);
  const rows = await db.syncDevices.bulkGet([...state.members.keys()]);
  const members = [...state.members.values()].map((m, i): MembershipMember => ({
    deviceId: m.deviceId,
    name: rows[i]?.name ?? m.deviceId,
    keyId: m.keyId,
    publicKey: m.signingKey,
    removed: m.removed,
  }));
  return { entries: stored.entries, members };
}
