import type { CouchClient } from '../couch/couch-client.ts';
import type { SyncKeys } from '../crypto/data-key.ts';
import type { MembershipEntry } from './membership-entry.ts';
import { followLog, type TrustedHead } from './membership-log.ts';
import { EMPTY_MEMBERSHIP, type MembershipState } from './membership-state.ts';
import { appendEntry, joinEntry, type Self } from './membership-writer.ts';

/** Why this device cannot enter the log with the key it holds. */
export class EnterRefused extends Error {
  override readonly name = 'EnterRefused';
  constructor(
    /** `epoch`: the log's key is newer than the one held (rotated since). `removed`: this device id was removed from this log. */
    readonly kind: 'epoch' | 'removed',
    message: string,
  ) {
    super(message);
  }
}

export interface EnterOptions {
  client: CouchClient;
  self: Self;
  /** The data key this device holds, and its epoch: with a pairing link, the epoch at the link's head (so left out). */
  keys: SyncKeys;
  epoch?: number;
  now: number;
  /** The pairing link's head: the log must pass through it, and the key held is the one at that head. */
  trustedHead?: TrustedHead;
  invitedBy?: string;
  /** Checks on the log as read, before anything is written (the pairing link's inviter, the parameters' check, its one use). */
  beforeWriting?: (state: MembershipState) => Promise<void>;
}

/**
 * Reads the log from its start and makes this device a member: it founds
 * the log when there is none, adds itself otherwise (or finds itself there
 * already, turning sync on again). The key held must be the log's current
 * one: after a rotation, the passphrase's key (the first) is not, and only
 * pairing from a member brings the current one.
 */
export async function enterLog(options: EnterOptions): Promise<{ entries: MembershipEntry[]; state: MembershipState }> {
  const { client, self, keys, now, trustedHead } = options;
  const keyring = new Map<number, SyncKeys>();
  let from = { state: EMPTY_MEMBERSHIP, adopted: [] as MembershipEntry[] };
  if (trustedHead) {
    // Up to the head, authenticated by its hash; the key held is the one at the head (never the parameters' clear epoch).
    from = await followLog(client, EMPTY_MEMBERSHIP, { keyring, trustedHead });
  }
  const epoch = trustedHead ? (from.adopted.find((e) => e.seq === trustedHead.seq)?.epoch ?? 0) : (options.epoch ?? 1);
  keyring.set(epoch, keys);
  const more = await followLog(client, from.state, { keyring });
  const read = { state: more.state, adopted: [...from.adopted, ...more.adopted] };
  const stale = () => new EnterRefused('epoch', 'The sync key was changed when a device was removed.');
  if (read.state.seq > 0 && read.state.epoch !== epoch) throw stale();
  await options.beforeWriting?.(read.state);
  const joined = await appendEntry(client, read.state, { keyring }, async (state) => {
    const me = state.members.get(self.deviceId);
    if (me?.removed) throw new EnterRefused('removed', 'This device was removed from this sync database.');
    if (me && me.keyId === self.identity.keyId) return undefined;
    if (me) throw new EnterRefused('removed', 'This device id is in the log with another key.');
    if (state.seq > 0 && state.epoch !== epoch) throw stale();
    return joinEntry(self, state, keys, epoch, now, options.invitedBy);
  });
  const me = joined.state.members.get(self.deviceId);
  if (!me || me.removed) throw new EnterRefused('removed', 'This device was removed from this sync database.');
  return { entries: [...read.adopted, ...joined.adopted], state: joined.state };
}
