import Dexie, { type Table } from 'dexie';
import { z } from 'zod';
import { APP_VERSION } from '../common/app-version.ts';
import { yieldToEventLoop } from '../common/yield-to-event-loop.ts';
import type { PausepointDb } from '../storage/db.ts';
import { keysetPages } from '../storage/keyset-pages.ts';
import { toStorageError } from '../storage/storage-error.ts';
import type { Message } from '../engine/records/index.ts';
import { attachmentLine, namedAttachments } from './backup-attachments.ts';
import { messagesByConversation } from './messages-by-conversation.ts';
import { recordLinkProblem, type LinkedRecord } from './record-link-problem.ts';
import {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  BackupSettings,
  RECORD_SCHEMAS,
  RECORD_TABLES,
  backupFileName,
  type RecordTable,
  type SkippedRecord,
} from './backup-format.ts';

export interface BackupProgress {
  /** Records read so far. */
  done: number;
  /** Records in the database when the backup started. */
  total: number;
}

export interface BackupOptions {
  now?: () => number;
  /** Records read per page; the page is one chunk of the file. */
  pageSize?: number;
  onProgress?: (progress: BackupProgress) => void;
  signal?: AbortSignal;
}

export interface BackupSummary {
  createdAt: string;
  /** Records written per table, and whether settings were included. */
  counts: Record<RecordTable, number> & { settings: boolean; attachments: number };
  /** Stored records left out because they could not be read back; the file lists them too. */
  skipped: SkippedRecord[];
}

export interface Backup extends BackupSummary {
  blob: Blob;
  fileName: string;
}

const SETTINGS_KEY = 'settings';

/**
 * The whole database as a backup file (see backup-format.ts), built as a Blob
 * of Blobs, one per page of records (or attached file): each page's text is
 * handed to a Blob as soon as it is written and dropped, so the file of a
 * database of any size is never held as text in the page's memory (a
 * browser keeps a Blob's bytes outside the JavaScript heap, on disk if need be).
 */
export async function createBackup(db: PausepointDb, options: BackupOptions = {}): Promise<Backup> {
  const parts: Blob[] = [];
  const summary = await writeBackup(db, (chunk) => void parts.push(new Blob([chunk])), options);
  return { ...summary, blob: new Blob(parts, { type: 'application/json' }), fileName: backupFileName(new Date(summary.createdAt)) };
}

/**
 * Writes the backup's text to `write` in chunks. Everything is read in one
 * read-only transaction, so the file is one consistent snapshot even while a
 * worker appends to a conversation; between pages the event loop gets a turn
 * (`Dexie.waitFor` keeps the transaction open meanwhile), so a large backup
 * does not freeze the page and its progress can be shown.
 *
 * Each record is written only after its JSON text parses back into a valid
 * record, so every record in the file can be restored; a record that cannot
 * (corrupt, or holding a value JSON has no form for) is listed in `skipped`.
 * The same goes for a record that points outside the file (a message of a
 * conversation that is gone; see record-link-problem.ts). The settings row is
 * written without its API key and the device id row is never read.
 */
export async function writeBackup(db: PausepointDb, write: (chunk: string) => void, options: BackupOptions = {}): Promise<BackupSummary> {
  const { now = Date.now, pageSize = 500, onProgress, signal } = options;
  const createdAt = new Date(now()).toISOString();
  const tables: Record<RecordTable, Table> = {
    conversations: db.conversations,
    messages: db.messages,
    pausePoints: db.pausePoints,
    ledger: db.ledger,
    notes: db.notes,
    approvalRules: db.approvalRules,
    auditEvents: db.auditEvents,
  };
  // The caller's callbacks run outside the backup's transaction: a write they start must not join it.
  const report = (progress: BackupProgress) => {
    if (onProgress) Dexie.ignoreTransaction(() => onProgress(progress));
  };
  const emit = (chunk: string) => Dexie.ignoreTransaction(() => write(chunk));
  const skipped: SkippedRecord[] = [];
  const counts = { conversations: 0, messages: 0, pausePoints: 0, ledger: 0, notes: 0, approvalRules: 0, auditEvents: 0, settings: false };
  // The conversations written so far: every other table is written after them and must point inside the file.
  const conversations = new Set<string>();
  // The files the written messages name: written after every record table.
  const files = new Set<string>();
  let attachments = 0;

  try {
    await db.transaction('r', [...Object.values(tables), db.settings, db.attachments], async () => {
      const sizes = await Promise.all(RECORD_TABLES.map((name) => tables[name].count()));
      const total = sizes.reduce((sum, size) => sum + size, 0);
      let done = 0;
      report({ done, total });

      emit(`{"format":${JSON.stringify(BACKUP_FORMAT)},"version":${BACKUP_VERSION},"createdAt":${JSON.stringify(createdAt)},"appVersion":${JSON.stringify(APP_VERSION)},"data":{`);
      for (const name of RECORD_TABLES) {
        emit(`${name === RECORD_TABLES[0] ? '' : ','}\n${JSON.stringify(name)}:[`);
        const schema: z.ZodType<LinkedRecord> = RECORD_SCHEMAS[name];
        // Messages a conversation's together, which a restore sets aside in fewer writes; every other table in id order.
        const pages = name === 'messages' ? messagesByConversation(db.messages, pageSize) : keysetPages(tables[name], pageSize);
        for (;;) {
          signal?.throwIfAborted();
          const next = await pages.next();
          if (next.done) break;
          const page: unknown[] = next.value;
          const lines: string[] = [];
          for (const record of page) {
            const line = recordLine(name, record, schema, conversations, skipped);
            if (line === undefined) continue;
            if (name === 'conversations') conversations.add(idOf(record));
            if (name === 'messages') for (const id of namedAttachments([record as Message])) files.add(id);
            lines.push(`${counts[name] === 0 ? '\n' : ',\n'}${line}`);
            counts[name]++;
          }
          if (lines.length > 0) emit(lines.join(''));
          done += page.length;
          report({ done, total: Math.max(total, done) });
          await Dexie.waitFor(yieldToEventLoop());
        }
        emit(counts[name] === 0 ? ']' : '\n]');
      }

      // One file at a time: a file's bytes are read (outside the transaction's own requests, kept open by waitFor) and written before the next.
      emit(',\n"attachments":[');
      for (const id of files) {
        signal?.throwIfAborted();
        const row = await db.attachments.get(id);
        if (!row) continue;
        const bytes = new Uint8Array(await Dexie.waitFor(row.blob.arrayBuffer()));
        emit(`${attachments === 0 ? '\n' : ',\n'}${await Dexie.waitFor(attachmentLine(row, bytes))}`);
        attachments++;
      }
      emit(attachments === 0 ? ']' : '\n]');

      const settings = await readBackupSettings(db, skipped);
      counts.settings = settings !== null;
      emit(`,\n"settings":${JSON.stringify(settings)}\n},"skipped":${JSON.stringify(skipped)}}\n`);
    });
  } catch (error) {
    throw toStorageError(error);
  }
  return { createdAt, counts: { ...counts, attachments }, skipped };
}

/** The record's JSON line, or undefined (and an entry in `skipped`) when the line would not restore. */
function recordLine(table: RecordTable, record: unknown, schema: z.ZodType<LinkedRecord>, conversations: ReadonlySet<string>, skipped: SkippedRecord[]): string | undefined {
  const id = idOf(record);
  let text: string | undefined;
  try {
    text = JSON.stringify(record);
  } catch (error) {
    skipped.push({ table, id, reason: `It holds a value JSON cannot represent: ${error instanceof Error ? error.message : String(error)}` });
    return undefined;
  }
  const parsed = schema.safeParse(text === undefined ? undefined : JSON.parse(text));
  if (!parsed.success) {
    skipped.push({ table, id, reason: z.prettifyError(parsed.error).replace(/\s*\n\s*/g, '; ') });
    return undefined;
  }
  // A record left behind by its conversation (or with a broken link) would make the whole file refused.
  const problem = recordLinkProblem(table, parsed.data, conversations);
  if (problem !== undefined) {
    skipped.push({ table, id, reason: `It cannot be restored: ${problem}.` });
    return undefined;
  }
  return text;
}

/** The settings row's value without the API key, or null when there is none (or it cannot be read). */
async function readBackupSettings(db: PausepointDb, skipped: SkippedRecord[]): Promise<z.infer<typeof BackupSettings> | null> {
  const row = await db.settings.get(SETTINGS_KEY);
  if (!row) return null;
  // Parsing through the schema that has no apiKey field drops the key; the raw row is never serialised.
  const parsed = BackupSettings.safeParse(row.value);
  if (parsed.success) return parsed.data;
  // Field names only: the row holds the API key, which must not reach the file through an error message.
  const fields = [...new Set(parsed.error.issues.map((issue) => issue.path.join('.') || '(row)'))];
  skipped.push({ table: 'settings', id: SETTINGS_KEY, reason: `Invalid fields: ${fields.join(', ')}` });
  return null;
}

function idOf(record: unknown): string {
  const id = typeof record === 'object' && record !== null ? (record as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? id : String(id);
}
