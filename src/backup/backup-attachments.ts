import { z } from 'zod';
import { fromBase64, toBase64 } from '../common/base64.ts';
import { sha256Hex } from '../common/sha256.ts';
import { AttachmentRef, MAX_FILE_TEXT_CHARS, type Message } from '../engine/records/index.ts';
import type { StoredAttachment } from '../storage/stored-attachment.ts';
import { NOTHING } from './backup-checks.ts';
import { BackupError } from './backup-error.ts';

/**
 * An attached file as a backup carries it (`data.attachments`, backup-format.ts): the stored row with its
 * bytes as standard base64 in `data`. The hash is checked on restore: bytes
 * that are not the ones the message named refuse the file.
 */
export const BackupAttachment = AttachmentRef.extend({
  v: z.literal(1),
  createdAt: z.number(),
  text: z.string().max(MAX_FILE_TEXT_CHARS).optional(),
  data: z.string(),
});
export type BackupAttachment = z.infer<typeof BackupAttachment>;

/** The JSON line of one stored attachment. */
export async function attachmentLine(row: StoredAttachment, bytes: Uint8Array): Promise<string> {
  const { blob: _blob, ...fields } = row;
  return JSON.stringify({ ...fields, data: toBase64(bytes) } satisfies BackupAttachment);
}

/** The ids of the attachments the messages name. */
export function namedAttachments(messages: readonly Message[]): Set<string> {
  const ids = new Set<string>();
  for (const m of messages) if (m.role === 'user') for (const ref of m.attachments ?? []) ids.add(ref.id);
  return ids;
}

/**
 * One attachment of a backup, checked: against its schema, its bytes against
 * its size and SHA-256, and against `ref`, the ref a message of the file gives
 * it (undefined when no message names it: refused, as a record outside the
 * file is). `index` is its place in the file's list, for the refusal.
 */
export async function checkBackupAttachment(row: unknown, index: number, ref: AttachmentRef | undefined): Promise<StoredAttachment> {
  const refuse = (why: string): never => {
    throw new BackupError('invalid_record', `Attachment ${index} of the backup${label(row)} ${why}. ${NOTHING}`, { table: 'attachments', index });
  };
  const parsed = BackupAttachment.safeParse(row);
  if (!parsed.success) return refuse(`is invalid: ${parsed.error.issues[0]?.message ?? 'unreadable'}`);
  const { data, ...fields } = parsed.data;
  if (!ref) return refuse('is named by no message of the backup');
  if (ref.sha256 !== fields.sha256 || ref.size !== fields.size || ref.type !== fields.type) refuse('is not the file its message names');
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = fromBase64(data);
  } catch {
    return refuse('holds data that is not base64');
  }
  if (bytes.length !== fields.size || (await sha256Hex(bytes)) !== fields.sha256) refuse('does not match its SHA-256: the file was changed or damaged');
  return { ...fields, blob: new Blob([bytes], { type: fields.type }) };
}

function label(row: unknown): string {
  const name = typeof row === 'object' && row !== null ? (row as { name?: unknown }).name : undefined;
  return typeof name === 'string' ? ` (“${name.slice(0, 80)}”)` : '';
}
