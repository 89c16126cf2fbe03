import type { z } from 'zod';
import { AUDIT_FORMAT, AUDIT_VERSION, AuditLogFile, type AuditEntry, type AuditMetadata } from './audit-entry.ts';
import { AUDIT_VERSION_1, AuditLogFileV1, type AuditEntryV1 } from './audit-log-v1.ts';
import { AUDIT_VERSION_2, AuditLogFileV2, type AuditEntryV2 } from './audit-log-v2.ts';
import { AUDIT_VERSION_3, AuditLogFileV3, type AuditEntryV3 } from './audit-log-v3.ts';
import type { SignatureFailure, SignatureReport } from './check-signatures.ts';
import { chainSeal, chainStart, expectedHash, GENESIS_HASH } from './hash-chain.ts';
import { yieldToEventLoop } from '../common/yield-to-event-loop.ts';

export type VerifyResult =
  | { ok: true; version: typeof AUDIT_VERSION; entries: AuditEntry[]; headHash: string; metadata: AuditMetadata; signatures: SignatureReport }
  | { ok: true; version: typeof AUDIT_VERSION_3; entries: AuditEntryV3[]; headHash: string; metadata: AuditMetadata }
  | { ok: true; version: typeof AUDIT_VERSION_2; entries: AuditEntryV2[]; headHash: string; metadata: AuditMetadata }
  | { ok: true; version: typeof AUDIT_VERSION_1; entries: AuditEntryV1[]; headHash: string; metadata: AuditMetadata }
  | {
      ok: false;
      reason: string;
      /** The position (0-based) of the first entry that does not match, when one entry is to blame. */
      firstBadIndex?: number;
      entryId?: string;
      /** Version 4: every decision whose device signature fails (the chain and the schema held). */
      failedSignatures?: SignatureFailure[];
    };

export interface VerifyOptions {
  /** Called every few hundred entries while hashes are checked. */
  onProgress?: (checked: number, total: number) => void;
}

const PROGRESS_EVERY = 500;

/**
 * The largest audit file the verifier reads, in bytes (200 MB). Verifying holds
 * the whole text and its parsed entries in memory at once, a few times the
 * file's size; a larger file is refused before any of it is read.
 */
export const MAX_AUDIT_FILE_BYTES = 200_000_000;
const MEGABYTE = 1_000_000;

/** Verifies an audit file chosen by the person: refused unread when it is larger than `MAX_AUDIT_FILE_BYTES`. */
export async function verifyAuditBlob(file: Blob, options: VerifyOptions = {}): Promise<VerifyResult> {
  if (file.size > MAX_AUDIT_FILE_BYTES) {
    return {
      ok: false,
      reason: `This file is ${(file.size / MEGABYTE).toFixed(1)} MB; Pausepoint verifies audit files of up to ${MAX_AUDIT_FILE_BYTES / MEGABYTE} MB, so it was not read.`,
    };
  }
  return verifyAuditFile(await file.text(), options);
}

/**
 * Checks an audit file: that it is a Pausepoint audit log this version can read
 * (format version 1 to 4),
 * that every entry's hash is the SHA-256 of its canonical JSON without `hash`,
 * that each `prev_hash` is the previous entry's hash (for the first: 64 zeros
 * in versions 1 and 2, the hash of the format, version and metadata in
 * version 3, and of the devices with them in version 4), that `entry_count`
 * and `head_hash` describe the last entry (from version 3 on, `head_hash`
 * seals it with the count and the skipped records), that the whole file
 * matches its version's schema, and, in version 4, that every decision's
 * device signature verifies against the listed device's key and signs that
 * decision (check-signatures.ts): every failing decision is listed. The chain
 * is checked the same way in every version. The first failure is reported,
 * naming the entry where the chain breaks: a changed entry fails at itself, a
 * removed or
 * reordered one at the entry that follows the gap.
 */
export async function verifyAuditFile(text: string, { onProgress }: VerifyOptions = {}): Promise<VerifyResult> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: `This file is not JSON (${error instanceof Error ? error.message : String(error)}).` };
  }
  if (!isRecord(parsed)) {
    return { ok: false, reason: 'This is not a Pausepoint audit log: the file holds JSON, but not an object.' };
  }
  if (parsed.format !== AUDIT_FORMAT) {
    const named = typeof parsed.format === 'string' ? `its format is "${parsed.format.slice(0, 80)}"` : 'it names no format';
    return { ok: false, reason: `This is not a Pausepoint audit log: ${named}, not "${AUDIT_FORMAT}".` };
  }
  const { version } = parsed;
  if (typeof version === 'number' && Number.isInteger(version) && version > AUDIT_VERSION) {
    return {
      ok: false,
      reason: `This audit log is format version ${version}, written by a newer Pausepoint; this version reads versions ${AUDIT_VERSION_1} to ${AUDIT_VERSION}. Update Pausepoint to verify it.`,
    };
  }
  if (version !== AUDIT_VERSION && version !== AUDIT_VERSION_3 && version !== AUDIT_VERSION_2 && version !== AUDIT_VERSION_1) {
    return { ok: false, reason: `This audit log has no readable format version (expected ${AUDIT_VERSION_1} to ${AUDIT_VERSION}).` };
  }
  const { entries } = parsed;
  if (!Array.isArray(entries)) return { ok: false, reason: 'This audit log has no list of entries.' };

  // Version 3 chains the metadata too, version 4 the devices with it: they are the first link.
  const sealed = version === AUDIT_VERSION || version === AUDIT_VERSION_3;
  const head = version === AUDIT_VERSION ? { devices: parsed.devices, membership: parsed.membership } : {};
  let previous: string;
  try {
    previous = sealed ? chainStart({ format: AUDIT_FORMAT, version, metadata: parsed.metadata, ...head }) : GENESIS_HASH;
  } catch (error) {
    return { ok: false, reason: `This audit log's metadata has no JSON form (${error instanceof Error ? error.message : String(error)}).` };
  }
  for (let index = 0; index < entries.length; index++) {
    const entry: unknown = entries[index];
    if (!isRecord(entry)) return bad(index, undefined, `Entry ${index + 1} is not an object.`);
    const id = typeof entry.id === 'string' ? entry.id : undefined;
    const name = `Entry ${index + 1}${id === undefined ? '' : ` (${id})`}`;
    if (sealed && index === 0 && entry.prev_hash !== previous) {
      return bad(
        index,
        id,
        `${name} does not follow the file's metadata: the metadata (app version, export time, device id or filters)${version === AUDIT_VERSION ? ' or the devices' : ''} was changed after export, or entries before it were removed.`,
      );
    }
    if (entry.prev_hash !== previous) {
      return bad(
        index,
        id,
        `${name} does not follow the entry before it: its prev_hash is not the previous entry's hash. An entry before it was removed, reordered or altered.`,
      );
    }
    if (typeof entry.hash !== 'string' || (await expectedHash(entry)) !== entry.hash) {
      return bad(index, id, `${name} does not match its hash: it was changed after it was exported.`);
    }
    previous = entry.hash;
    if (onProgress && (index + 1) % PROGRESS_EVERY === 0) {
      onProgress(index + 1, entries.length);
      await yieldToEventLoop();
    }
  }
  onProgress?.(entries.length, entries.length);

  if (parsed.entry_count !== entries.length) {
    return { ok: false, reason: `The file says it holds ${String(parsed.entry_count)} entries but has ${entries.length}: entries were removed or added at the end.` };
  }
  if (sealed) {
    let seal: string;
    try {
      seal = chainSeal(previous, entries.length, parsed.skipped_records);
    } catch (error) {
      return { ok: false, reason: `This audit log's skipped records have no JSON form (${error instanceof Error ? error.message : String(error)}).` };
    }
    if (parsed.head_hash !== seal) {
      return {
        ok: false,
        reason:
          entries.length === 0
            ? 'The head hash does not seal this file: its metadata or skipped records were changed after export, entries were removed, or the head hash was changed.'
            : 'The head hash does not seal the last entry with the entry count and the skipped records: entries were removed or added at the end, the skipped records were changed, or the head hash was changed.',
      };
    }
  } else if (parsed.head_hash !== previous) {
    return { ok: false, reason: 'The head hash is not the last entry\'s hash: entries were removed or added at the end, or the head hash was changed.' };
  }

  if (version === AUDIT_VERSION_1) {
    const checked = AuditLogFileV1.safeParse(parsed);
    if (!checked.success) return schemaFailure(checked.error, entries);
    return { ok: true, version, entries: checked.data.entries, headHash: checked.data.head_hash, metadata: checked.data.metadata };
  }
  if (version === AUDIT_VERSION_2) {
    const checked = AuditLogFileV2.safeParse(parsed);
    if (!checked.success) return schemaFailure(checked.error, entries);
    return { ok: true, version, entries: checked.data.entries, headHash: checked.data.head_hash, metadata: checked.data.metadata };
  }
  if (version === AUDIT_VERSION_3) {
    const checked = AuditLogFileV3.safeParse(parsed);
    if (!checked.success) return schemaFailure(checked.error, entries);
    return { ok: true, version, entries: checked.data.entries, headHash: checked.data.head_hash, metadata: checked.data.metadata };
  }
  const checked = AuditLogFile.safeParse(parsed);
  if (!checked.success) return schemaFailure(checked.error, entries);
  // The signature checks (WebCrypto, src/identity, the membership log's rules) load with a version 4 file, not with the audit view.
  const [{ checkSignatures }, { membershipRefusal }] = await Promise.all([import('./check-signatures.ts'), import('./check-membership.ts')]);
  const unvouched = await membershipRefusal(checked.data.devices, checked.data.membership);
  if (unvouched !== undefined) return { ok: false, reason: `The devices of this audit log are not vouched for: ${unvouched}.` };
  const signatures = await checkSignatures(checked.data.devices, checked.data.entries);
  const [first] = signatures.failed;
  if (first) {
    const more = signatures.failed.length > 1 ? ` ${signatures.failed.length - 1} more decision${signatures.failed.length > 2 ? 's fail' : ' fails'} too.` : '';
    return { ok: false, reason: `Entry ${first.index + 1} (${first.id}): ${first.reason}.${more}`, firstBadIndex: first.index, entryId: first.id, failedSignatures: signatures.failed };
  }
  return { ok: true, version, entries: checked.data.entries, headHash: checked.data.head_hash, metadata: checked.data.metadata, signatures };
}

/** The first schema issue, naming the entry when it is in one. */
function schemaFailure(error: z.ZodError, entries: unknown[]): VerifyResult {
  const issue = error.issues[0];
  const path = issue?.path ?? [];
  const where = path.length > 0 ? path.join('.') : 'the file';
  const reason = `The file does not match the audit log schema at ${where}: ${issue?.message ?? 'invalid'}.`;
  if (path[0] === 'entries' && typeof path[1] === 'number') {
    const entry = entries[path[1]] as Record<string, unknown>;
    return bad(path[1], typeof entry.id === 'string' ? entry.id : undefined, reason);
  }
  return { ok: false, reason };
}

function bad(index: number, entryId: string | undefined, reason: string): VerifyResult {
  return entryId === undefined ? { ok: false, reason, firstBadIndex: index } : { ok: false, reason, firstBadIndex: index, entryId };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
