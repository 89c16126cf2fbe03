import type { CouchClient } from '../couch/couch-client.ts';
import type { SyncKeys } from '../crypto/data-key.ts';
import { entryHash, MEMBER_PREFIX, memberDocId, memberDocPrefix, MembershipEntry } from './membership-entry.ts';
import { fold, refusal, type MembershipState } from './membership-state.ts';

/** The log on the server does not hold what a trusted channel said it must: the pairing link's head is not there. */
export class MembershipError extends Error {
  override readonly name = 'MembershipError';
}

/** A head from a trusted channel (the pairing link): the log must pass through it. */
export interface TrustedHead {
  seq: number;
  hash: string;
}

export interface FollowOptions {
  /** The data keys this device holds, by epoch; a rotation this device stays through adds its new key (grantFor). */
  keyring: Map<number, SyncKeys>;
  /** The new key of a rotation this device stays through, opened from its grant; undefined when it has none. */
  grantFor?: (entry: Extract<MembershipEntry, { op: 'remove' }>) => Promise<SyncKeys | undefined>;
  trustedHead?: TrustedHead;
}

export interface Followed {
  state: MembershipState;
  /** The entries adopted past the state it started from, in order. */
  adopted: MembershipEntry[];
}

/**
 * Reads the log's entries past `state` from the server and adopts, seq by
 * seq, the one valid candidate (entry.ts says what valid is). The server may
 * hold several candidates at one seq: members that wrote at once, or
 * anything a removed device or the server itself wrote there. Invalid ones
 * (a bad signature, a signer removed before, an epoch that is not the next,
 * a document whose content does not hash to its id) are never adopted. Of
 * several valid ones, a removal beats an entry its subject signed at the same
 * seq (the device removed does not outvote its removal), then the lowest
 * hash wins, the same on every device; a writer whose entry lost reads the log
 * again and writes its change after the winner. What this device adopted is
 * never replaced: a candidate written later at an adopted seq is ignored.
 */
export async function followLog(client: CouchClient, from: MembershipState, options: FollowOptions): Promise<Followed> {
  const bySeq = await readCandidates(client, from.seq + 1);
  let state = from;
  const adopted: MembershipEntry[] = [];
  const adopt = async (entry: MembershipEntry) => {
    state = fold(state, entry);
    adopted.push(entry);
    if (entry.op !== 'remove' || !options.grantFor) return;
    const keys = await options.grantFor(entry);
    if (keys) options.keyring.set(entry.epoch, keys);
  };
  const keyOf = (epoch: number) => options.keyring.get(epoch);

  const trusted = options.trustedHead;
  if (trusted && trusted.seq > state.seq) {
    for (const entry of pathTo(bySeq, state, trusted)) {
      const why = await refusal(state, entry, keyOf, true);
      if (why) throw new MembershipError(`The membership log's entry ${entry.seq} is not valid (${why}).`);
      await adopt(entry);
    }
  }
  for (;;) {
    const candidates = bySeq.get(state.seq + 1) ?? [];
    const valid: MembershipEntry[] = [];
    for (const entry of candidates) if (!(await refusal(state, entry, keyOf))) valid.push(entry);
    const winner = choose(valid);
    if (!winner) return { state, adopted };
    await adopt(winner);
  }
}

/** The entries from `state` to the trusted head, linked by `prev`; MembershipError when the server does not hold them. */
function pathTo(bySeq: ReadonlyMap<number, MembershipEntry[]>, state: MembershipState, head: TrustedHead): MembershipEntry[] {
  const path: MembershipEntry[] = [];
  let hash = head.hash;
  for (let seq = head.seq; seq > state.seq; seq--) {
    const entry = (bySeq.get(seq) ?? []).find((e) => entryHash(e) === hash);
    if (!entry) throw new MembershipError('The sync server does not hold the devices the pairing link names: it may be serving another log.');
    path.unshift(entry);
    hash = entry.prev;
  }
  if (hash !== state.head) throw new MembershipError('The membership log on the sync server does not lead to the pairing link’s head.');
  return path;
}

function choose(valid: readonly MembershipEntry[]): MembershipEntry | undefined {
  const removedHere = new Set(valid.flatMap((e) => (e.op === 'remove' ? [e.subject.deviceId] : [])));
  const standing = valid.filter((e) => !removedHere.has(e.by) || (e.op === 'remove' && valid.some((o) => o.op === 'remove' && o.by === e.subject.deviceId && o.subject.deviceId === e.by)));
  const pool = standing.length > 0 ? standing : valid;
  return pool.reduce<MembershipEntry | undefined>((best, e) => (best === undefined || entryHash(e) < entryHash(best) ? e : best), undefined);
}

/** Every well-formed candidate from `fromSeq` on, by seq; a document whose content does not hash to its id is dropped. */
async function readCandidates(client: CouchClient, fromSeq: number): Promise<Map<number, MembershipEntry[]>> {
  const { rows } = await client.allDocs({ startKey: memberDocPrefix(fromSeq), endKey: `${MEMBER_PREFIX}\ufff0`, includeDocs: true });
  const bySeq = new Map<number, MembershipEntry[]>();
  for (const row of rows) {
    const parsed = MembershipEntry.safeParse(row.doc?.['m']);
    if (!parsed.success || memberDocId(parsed.data) !== row.id) continue;
    const list = bySeq.get(parsed.data.seq) ?? [];
    list.push(parsed.data);
    bySeq.set(parsed.data.seq, list);
  }
  return bySeq;
}

/**
 * Writes `entry` (created once, its id naming its hash, so nobody can take
 * its place beforehand). A 409 means a document is there already: it is
 * read back, and it counts only if it is this very entry.
 */
export async function writeEntry(client: CouchClient, entry: MembershipEntry): Promise<void> {
  const id = memberDocId(entry);
  const created = await client.createDocument(id, { m: entry });
  if (created.outcome === 'created') return;
  const stored = MembershipEntry.safeParse((await client.getDocument(id))?.['m']);
  if (!stored.success || memberDocId(stored.data) !== id) throw new MembershipError('Another document holds this membership entry’s place on the sync server.');
}
