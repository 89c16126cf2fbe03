import { canonicalJson, setMember } from './canonical-json.ts';
import { sha256Hex } from './sha256.ts';
import { sha256HexSync } from './sha256-sync.ts';

/** The `prev_hash` of the first entry, and the head hash of a file with no entries, in versions 1 and 2. */
export const GENESIS_HASH = '0'.repeat(64);

/**
 * Where a version 3 or 4 chain starts: the first entry's `prev_hash` is the
 * hash of the file's format, version and metadata (filters, `exported_at`,
 * `device_id`, `app_version`) — in version 4 with its `devices` too (and the
 * membership log that vouches for them, when the file carries one) — so
 * editing any of them breaks the chain at its first link.
 */
export function chainStart(head: { format: string; version: number; metadata: unknown; devices?: unknown; membership?: unknown }): string {
  const { format, version, metadata, devices, membership } = head;
  return sha256HexSync(
    canonicalJson({ format, metadata, version, ...(devices === undefined ? {} : { devices }), ...(membership === undefined ? {} : { membership }) }),
  );
}

/**
 * A version 3 file's `head_hash`: the last link's hash (the chain start when
 * there are no entries) sealed with `entry_count` and `skipped_records`, which
 * only the end of a streamed export knows. Cutting entries, or editing the
 * count or the list of skipped records, changes it.
 */
export function chainSeal(last: string, entryCount: number, skippedRecords: unknown): string {
  return sha256HexSync(canonicalJson({ entry_count: entryCount, prev_hash: last, skipped_records: skippedRecords }));
}

const PREV = 'prev_hash';

/**
 * An entry's canonical text, split around where its `prev_hash` member goes
 * (members are sorted, so that place is fixed by the other keys). Everything
 * but the previous hash can be serialised before the chain reaches the entry.
 */
export interface EntryText {
  before: string;
  after: string;
}

/** Splits `body` (an entry without `prev_hash` and `hash`) into the canonical text around `prev_hash`. */
export function entryText(body: object): EntryText {
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  const source = body as Record<string, unknown>;
  for (const key of Object.keys(source).sort()) {
    if (key === PREV || key === 'hash') throw new TypeError(`An entry body may not carry "${key}": the chain sets it.`);
    setMember(key < PREV ? before : after, key, source[key]);
  }
  const head = canonicalJson(before).slice(1, -1);
  const tail = canonicalJson(after).slice(1, -1);
  return { before: `{${head}${head === '' ? '' : ','}"${PREV}":"`, after: `"${tail === '' ? '' : ','}${tail}}` };
}

/**
 * Hashes one entry into the chain: `hash = sha256(canonical(entry with prev_hash, without hash))`,
 * synchronously (see sha256-sync.ts: the chain is one entry after another anyway).
 * Returns the hash and the entry's text as it is written to the file: the
 * canonical text that was hashed with the `hash` member appended, so a reader
 * can see exactly which bytes the hash covers.
 */
export function chainEntry(text: EntryText, prevHash: string): { hash: string; text: string } {
  const canonical = `${text.before}${prevHash}${text.after}`;
  const hash = sha256HexSync(canonical);
  return { hash, text: `${canonical.slice(0, -1)},"hash":"${hash}"}` };
}

/** The hash an entry read back from a file should carry: its canonical form without `hash`. */
export function expectedHash(entry: Record<string, unknown>): Promise<string> {
  const { hash: _hash, ...rest } = entry;
  return sha256Hex(canonicalJson(rest));
}
