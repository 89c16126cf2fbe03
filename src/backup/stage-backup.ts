import Dexie from 'dexie';
import type { z } from 'zod';
import { writeInBatches } from '../common/write-in-batches.ts';
import { ledgerId, type AttachmentRef, type Message } from '../engine/records/index.ts';
import type { PausepointDb } from '../storage/db.ts';
import { toStorageError } from '../storage/storage-error.ts';
import { checkFormatAndVersion, checkSettings, idLabel, isRecord, NOTHING, oneLine } from './backup-checks.ts';
import { checkBackupAttachment } from './backup-attachments.ts';
import { BackupError } from './backup-error.ts';
import { BACKUP_ENVELOPES, BACKUP_FORMAT, RECORD_SCHEMAS, RECORD_TABLES, SkippedRecord, type BackupSettings, type ReadableVersion, type RecordTable } from './backup-format.ts';
import { readBackupStream, type BackupItem } from './read-backup-stream.ts';
import { recordLinkProblem, type LinkedRecord } from './record-link-problem.ts';
import type { RestoreStaging, StagedCall, StagedMessages, StagedOwned } from './restore-staging.ts';

/** What the file's checking found, besides the records it set aside. */
export interface StagedBackup {
  version: ReadableVersion;
  settings: BackupSettings | null;
  /** Records the backup itself says were unreadable when it was made. */
  skippedInBackup: number;
  /** The file's conversations that are here already: kept as they are, with everything they own. */
  present: ReadonlySet<string>;
  /** Records set aside, all tables and attachments. */
  records: number;
  bytes: number;
}

export interface StageProgress {
  /** Records checked and set aside. */
  records: number;
  bytes: number;
}

export interface StageOptions {
  signal?: AbortSignal;
  onProgress?: (progress: StageProgress) => void;
}

/** One record of the file, checked, on its way to the staging database. */
type Checked = { table: RecordTable; row: { id: string; index: number; conversationId?: string; record: LinkedRecord } } | { table: 'attachments'; row: { id: string; index: number; conversationId: string; record: AttachmentRow } };
type AttachmentRow = Awaited<ReturnType<typeof checkBackupAttachment>>;

/** The members of `data` in any version; which of them a file must have is its version's (`BACKUP_ENVELOPES`). */
const DATA_MEMBERS = new Set<string>([...RECORD_TABLES, 'attachments', 'settings']);
const OWNED: ReadonlySet<RecordTable> = new Set(['messages', 'pausePoints', 'ledger']);
const WHAT: Partial<Record<RecordTable, string>> = { messages: 'a message', pausePoints: 'an approval', ledger: 'a ledger entry' };
/** A batch set aside holds about this many records, or this many bytes of text and files. */
const BATCH_RECORDS = 500;
const BATCH_WEIGHT = 4_000_000;

/**
 * Reads the backup as a stream and checks every record as it comes, setting
 * the checked ones aside in `staging` (restore-staging.ts) in batches; nothing
 * is written to `db`. Refuses with a `BackupError` naming the first problem and
 * where it is (table and index, the byte for a file that is not JSON or is cut
 * off): a record that breaks its schema, repeats an id, points outside the
 * file (record-link-problem.ts) or has the id of a record of another
 * conversation here (writing it would replace that one); an attached file no
 * message names or whose bytes are not the ones named; settings that break
 * their schema or point a named provider elsewhere.
 *
 * The file's tables come in the order a backup writes them (backup-format.ts):
 * conversations first, so every record after them is checked against them.
 * Returns null when cancelled.
 */
export async function stageBackup(db: PausepointDb, staging: RestoreStaging, stream: ReadableStream<Uint8Array>, options: StageOptions = {}): Promise<StagedBackup | null> {
  const header: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  let version: ReadableVersion | undefined;
  const members = new Set<string>();
  let settings: Record<string, unknown> | null = null;
  let skippedInBackup = 0;
  let bytes = 0;
  let records = 0;
  const conversations = new Set<string>();
  const present = new Set<string>();
  // Each attachment a message of the file names, with the conversation that names it: attachments come last.
  const refs = new Map<string, { ref: AttachmentRef; conversationId: string }>();

  const checkHeader = (): ReadableVersion => {
    if (version !== undefined) return version;
    const checked = checkFormatAndVersion(header.format, header.version);
    const envelope = BACKUP_ENVELOPES[checked].shape;
    for (const key of ['createdAt', 'appVersion'] as const) {
      const parsed = (envelope[key] as z.ZodType).safeParse(header[key]);
      if (!parsed.success) throw new BackupError('invalid_file', `This backup file is damaged: ${key}: ${oneLine(parsed.error)}. ${NOTHING}`, { offset: bytes });
    }
    return (version = checked);
  };

  async function* checked(): AsyncGenerator<Checked | undefined> {
    for await (const item of readBackupStream(stream, { dataMembers: DATA_MEMBERS, onBytes: (read) => ((bytes = read), options.onProgress?.({ records, bytes })) })) {
      yield await check(item);
    }
  }

  async function check(item: BackupItem): Promise<Checked | undefined> {
    switch (item.kind) {
      case 'header':
        header[item.key] = item.value;
        // Another format is refused as soon as it is named, before any of its body is read.
        if (item.key === 'format' && item.value !== BACKUP_FORMAT) checkFormatAndVersion(item.value, undefined);
        return undefined;
      case 'data':
        checkHeader();
        return undefined;
      case 'member': {
        members.add(item.key);
        const expected = item.key === 'settings' ? ['object', 'null'] : ['list'];
        if (!expected.includes(item.shape)) {
          throw new BackupError('invalid_file', `This backup file is damaged: data.${item.key}: expected ${item.key === 'settings' ? 'an object or null' : 'a list'}. ${NOTHING}`, { offset: bytes });
        }
        if (item.key === 'settings') settings = item.shape === 'object' ? {} : null;
        return undefined;
      }
      case 'setting':
        if (settings) settings[item.key] = item.value;
        return undefined;
      case 'skipped':
        if (!SkippedRecord.safeParse(item.value).success) throw new BackupError('invalid_file', `This backup file is damaged: skipped.${skippedInBackup} is not a skipped record. ${NOTHING}`, { offset: bytes });
        skippedInBackup++;
        return undefined;
      case 'record':
        return checkRecord(item.table, item.index, item.value);
    }
  }

  async function checkRecord(table: string, index: number, value: unknown): Promise<Checked | undefined> {
    const fileVersion = checkHeader();
    if (table === 'attachments') {
      if (fileVersion !== 3) return undefined;
      const id = isRecord(value) && typeof value.id === 'string' ? value.id : undefined;
      const named = id === undefined ? undefined : refs.get(id);
      const attachment = await checkBackupAttachment(value, index, named?.ref);
      // With the conversation that names it: a kept conversation keeps its own files, and the backup's copy of them is not written.
      return { table: 'attachments', row: { id: attachment.id, index, conversationId: named!.conversationId, record: attachment } };
    }
    if (!isRecordTable(table) || !(table in BACKUP_ENVELOPES[fileVersion].shape.data.shape)) return undefined;
    const parsed = (RECORD_SCHEMAS[table] as z.ZodType<LinkedRecord>).safeParse(value);
    if (!parsed.success) {
      throw new BackupError('invalid_record', `Record ${index} of ${table}${idLabel(value)} is invalid: ${oneLine(parsed.error)}. ${NOTHING}`, {
        table,
        index,
        offset: bytes,
        cause: parsed.error,
      });
    }
    const record = parsed.data;
    const problem = recordLinkProblem(table, record, conversations);
    if (problem !== undefined) {
      throw new BackupError('invalid_record', `Record ${index} of ${table}${idLabel(value)} cannot be restored: ${problem}. ${NOTHING}`, { table, index, offset: bytes });
    }
    if (table === 'conversations') conversations.add(record.id);
    if (table === 'messages') {
      const message = record as Message;
      if (message.role === 'user') for (const ref of message.attachments ?? []) refs.set(ref.id, { ref, conversationId: message.conversationId });
    }
    return { table, row: { id: record.id, index, ...(record.conversationId === undefined ? {} : { conversationId: record.conversationId }), record } };
  }

  const end = await writeInBatches(checked(), {
    write: (batch) => setAside(db, staging, batch, present),
    onWritten: (batch) => {
      records += batch.length;
      options.onProgress?.({ records, bytes });
    },
    maxItems: BATCH_RECORDS,
    maxWeight: BATCH_WEIGHT,
    weigh,
    signal: options.signal,
  });
  if (end.stop === 'cancelled') return null;
  const fileVersion = checkHeader();
  for (const [key, schema] of Object.entries(BACKUP_ENVELOPES[fileVersion].shape.data.shape)) {
    if (!members.has(key) && !(schema as z.ZodType).safeParse(undefined).success) {
      throw new BackupError('invalid_file', `This backup file is damaged: data.${key}: it is missing. ${NOTHING}`, { offset: bytes });
    }
  }
  return { version: fileVersion, settings: checkSettings(settings), skippedInBackup, present, records, bytes };
}

function isRecordTable(table: string): table is RecordTable {
  return (RECORD_TABLES as readonly string[]).includes(table);
}

/** About what a record holds in memory: a message's text, a file's bytes. */
function weigh(item: Checked): number {
  if (item.table === 'attachments') return item.row.record.size;
  const content = (item.row.record as { content?: unknown }).content;
  return 200 + (typeof content === 'string' ? content.length : 0);
}

/**
 * Sets one batch aside, table by table, after the checks that need this
 * browser's database: which of the file's conversations are here already, and
 * whether a record the restore would write has an id a record here has.
 */
async function setAside(db: PausepointDb, staging: RestoreStaging, batch: readonly Checked[], present: Set<string>): Promise<void> {
  const byTable = new Map<Checked['table'], Checked['row'][]>();
  for (const { table, row } of batch) {
    const rows = byTable.get(table);
    if (rows) rows.push(row);
    else byTable.set(table, [row]);
  }
  for (const [table, rows] of byTable) {
    if (table === 'conversations') {
      const here = await db.conversations.bulkGet(rows.map((row) => row.id));
      rows.forEach((row, i) => here[i] !== undefined && present.add(row.id));
    }
    if (table === 'attachments' || OWNED.has(table)) await refuseTaken(db, table, rows, present);
    if (table === 'messages') {
      // In file order, so the last message of the file to make a call is the one whose call is kept, as when a conversation's messages are read in order.
      await staging.calls.bulkPut(rows.flatMap(({ index, record }) => callsOf(record as Message, index)));
      await setMessagesAside(staging, rows as StagedOwned<Message>[]);
      continue;
    }
    const target = staging[table] as Dexie.Table<Checked['row'], string>;
    await target.bulkAdd(rows).catch((error: unknown) => {
      throw repeated(table, rows[refusedAsRepeats(error)[0]!]!);
    });
  }
}

/**
 * Sets a batch's messages aside as one row per conversation (restore-staging.ts). The rows' unique
 * index catches an id an earlier batch set aside; one repeated inside this batch is looked for here,
 * since an index holds each key of a row once and a failed row would not say which of its ids it was.
 */
async function setMessagesAside(staging: RestoreStaging, messages: readonly StagedOwned<Message>[]): Promise<void> {
  const ids = new Set<string>();
  const rows = new Map<string, StagedMessages>();
  for (const message of messages) {
    if (ids.has(message.id)) throw repeated('messages', message);
    ids.add(message.id);
    const row = rows.get(message.conversationId);
    if (row) {
      row.ids.push(message.id);
      row.messages.push(message);
    } else {
      rows.set(message.conversationId, { conversationId: message.conversationId, index: message.index, ids: [message.id], messages: [message] });
    }
  }
  const list = [...rows.values()];
  await staging.messages.bulkAdd(list).catch(async (error: unknown) => {
    // Each id of the batch is its own, so a refused row's repeat is with an earlier batch: the first of the file to be found set aside.
    const refused = refusedAsRepeats(error).flatMap((position) => list[position]!.messages);
    for (const message of refused.sort((a, b) => a.index - b.index)) {
      if ((await staging.messages.where('ids').equals(message.id).count()) > 0) throw repeated('messages', message);
    }
    throw toStorageError(error);
  });
}

/** The positions a bulk write refused for a repeated key, in order; any other failure is thrown as the storage's. */
function refusedAsRepeats(error: unknown): number[] {
  if (!(error instanceof Dexie.BulkError)) throw toStorageError(error);
  const positions = Object.keys(error.failuresByPos).map(Number).sort((a, b) => a - b);
  const first = error.failuresByPos[positions[0]!];
  if (first?.name !== 'ConstraintError') throw toStorageError(first);
  return positions;
}

function repeated(table: Checked['table'], row: { id: string; index: number }): BackupError {
  return table === 'attachments'
    ? new BackupError('invalid_record', `Attachment ${row.index} of the backup repeats an id. ${NOTHING}`, { table, index: row.index })
    : new BackupError('invalid_record', `Record ${row.index} of ${table} repeats the id "${row.id.slice(0, 80)}". ${NOTHING}`, { table, index: row.index });
}

function callsOf(message: Message, index: number): StagedCall[] {
  return message.role === 'assistant' ? message.toolCalls.map((call) => ({ id: ledgerId(message.conversationId, call.id), index, call })) : [];
}

/** Refuses the file when a record or file it would write has an id a record or file here already has: writing it would replace that one. */
async function refuseTaken(db: PausepointDb, table: Checked['table'], rows: readonly Checked['row'][], present: ReadonlySet<string>): Promise<void> {
  const written = rows.filter((row) => !('conversationId' in row) || row.conversationId === undefined || !present.has(row.conversationId));
  const store = db[table as 'messages' | 'pausePoints' | 'ledger' | 'attachments'] as Dexie.Table<unknown, string>;
  // Only an id between the table's lowest and highest can be taken; an empty table (a restore onto a new device) is not read at all.
  const [lowest, highest] = (await Promise.all([store.orderBy(':id').firstKey(), store.orderBy(':id').lastKey()])) as (string | undefined)[];
  if (lowest === undefined || highest === undefined) return;
  const candidates = written.filter((row) => row.id >= lowest && row.id <= highest);
  const here = await store.bulkGet(candidates.map((row) => row.id));
  const taken = candidates.find((_, i) => here[i] !== undefined);
  if (taken === undefined) return;
  if (table === 'attachments') {
    throw new BackupError(
      'conflict',
      `An attached file of the backup (id "${taken.id.slice(0, 80)}") has the id of a file already in this browser; restoring it would replace that file. ${NOTHING}`,
      { table, index: taken.index },
    );
  }
  throw new BackupError(
    'conflict',
    `Record ${taken.index} of ${table} (id "${taken.id.slice(0, 80)}") has the id of ${WHAT[table as RecordTable]} already in this browser, in another conversation; restoring it would replace that one. ${NOTHING}`,
    { table, index: taken.index },
  );
}
