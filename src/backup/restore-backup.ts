import Dexie from 'dexie';
import { writeInBatches } from '../common/write-in-batches.ts';
import { ledgerId, type PausePoint } from '../engine/records/index.ts';
import { inertConversation, type InertConversation } from '../inert/index.ts';
import type { PausepointDb } from '../storage/db.ts';
import { keysetPages } from '../storage/keyset-pages.ts';
import { StorageError, toStorageError } from '../storage/storage-error.ts';
import type { StoredAttachment } from '../storage/stored-attachment.ts';
import { idLabel, NOTHING } from './backup-checks.ts';
import { BackupError } from './backup-error.ts';
import { gateCardProblem } from './record-link-problem.ts';
import { openRestoreStaging, removeRestoreStaging, type RestoreStaging, type StagedOwned } from './restore-staging.ts';
import { stageBackup, type StagedBackup } from './stage-backup.ts';
import { emptyResult, type RestoreProgress, type RestoreResult } from './restore-result.ts';
import { writeTheRest } from './write-the-rest.ts';

export type { RestoreProgress, RestoreResult } from './restore-result.ts';

/** What `navigator.storage.estimate()` answers: the port a test sets. */
export type StorageEstimator = () => Promise<{ quota?: number; usage?: number } | undefined>;

export interface RestoreOptions {
  onProgress?: (progress: RestoreProgress) => void;
  /** `Cancel`: see `RestoreResult.stopped` for what a cancelled restore leaves. */
  signal?: AbortSignal;
  /** This browser's storage estimate; by default `navigator.storage.estimate()`, where there is one. */
  estimate?: StorageEstimator;
}

const RESTORE_LOCK = 'pausepoint-restore';
const MEGABYTE = 1_000_000;
/**
 * Free storage a restore asks for, per byte of the file: the checked records
 * are set aside (restore-staging.ts) and then written in place, so both are
 * stored at once before the set-aside copy is removed.
 */
const SPACE_PER_BYTE = 2;
/**
 * Conversations written per transaction, or fewer when their text and files weigh this much: the
 * write pass is bound by the browser's IndexedDB, and 10 MB batches (2.5 times fewer transactions
 * than 4 MB ones) took it 2–3 s less in each of two interleaved pairs of bench:restore, the heap
 * peak unchanged (about 50 MB above start). Files are Blobs, outside the heap.
 */
const BATCH_CONVERSATIONS = 200;
const BATCH_WEIGHT = 10_000_000;
/** Staged conversations read back per page, with everything they own. */
const PAGE = 50;
/** Staged cards read per page when the gate cards are checked. */
const CARDS_PAGE = 500;

const browserEstimate: StorageEstimator = async () => globalThis.navigator?.storage?.estimate?.();

/**
 * Restores a backup file of any size, read as a stream (stage-backup.ts):
 * first the free storage is checked against the file's size (refused unread,
 * `no_space`, when it will not fit); then every record is checked and set
 * aside, and a bad file is refused (`BackupError`) with nothing written; then
 * each conversation is read back whole, passes the inert path and is written
 * in batches of whole conversations, one transaction each; then the notes,
 * approval rules, audit history and settings. Memory holds a batch and the
 * record being read, never the file.
 *
 * What comes back passes the inert path (src/inert/): no conversation comes
 * back running, no call of the file runs or asks, no card or decision of the
 * file is honoured, its instructions are off, its usage is history, no allow
 * rule is on; every record keeps the id the file proves.
 *
 * A restore adds what is missing and never rolls back what is here:
 * - A conversation already in the database is kept as it is, with all its
 *   records (and the rules scoped to it); the backup's copy of it is skipped
 *   whole. The local copy is the one this browser has been driving: putting an
 *   older copy over it would turn decided pause points back to pending (and a
 *   tool could run twice) and mix two message histories in one sequence.
 * - A record of a conversation that is not here, whose id is nevertheless taken
 *   here (by another conversation's record), refuses the whole file: writing it
 *   would replace that record, and giving it a new id would break the links
 *   that name it (a card's id is in its tool result and its decision message).
 *   Only a crafted or corrupted file can hold one.
 * - A rule whose id is here already is kept as it is here.
 * - Audit events come back as history, exactly as the file has them: an event
 *   records what happened, and never sets anything going. One whose id is here
 *   already is kept as it is here.
 * - A note is written when it is missing or older here.
 * - Settings are written when this browser has none, or has the same endpoint.
 *   Settings for another endpoint are not written: they would switch this browser
 *   to another server unasked. Written, they never loosen a spending bound here:
 *   the stricter limit, Max tokens per answer and price wins (stricter-settings.ts).
 *   API keys are never written: a file holds none, and
 *   the keys saved here (per origin) stay as they are.
 * Restoring the same file twice therefore writes nothing the second time, and
 * restoring it again after a cancel (or a failure of the storage part way)
 * adds what the first restore did not write: what it wrote is whole
 * conversations, each of which the second finds here and keeps.
 */
export async function restoreBackupFile(db: PausepointDb, file: Blob, options: RestoreOptions = {}): Promise<RestoreResult> {
  // One restore at a time in this browser (another tab's waits): each has the staging database to itself.
  const locks = globalThis.navigator?.locks;
  return locks ? locks.request(RESTORE_LOCK, () => restoreAlone(db, file, options)) : restoreAlone(db, file, options);
}

async function restoreAlone(db: PausepointDb, file: Blob, options: RestoreOptions): Promise<RestoreResult> {
  await checkSpace(file.size, options.estimate ?? browserEstimate);
  const staging = await openRestoreStaging(db.name).catch((error: unknown) => {
    throw toStorageError(error);
  });
  try {
    const progress = (phase: RestoreProgress['phase'], records: number, totalRecords: number | null, bytes: number) =>
      options.onProgress?.({ phase, records, totalRecords, bytes, totalBytes: file.size });
    const staged = await stageBackup(db, staging, file.stream(), { signal: options.signal, onProgress: ({ records, bytes }) => progress('checking', records, null, bytes) });
    if (staged === null) return { ...emptyResult(file.size), stopped: { reason: 'cancelled', while: 'checking' } };
    await refuseGateCards(staging);
    return await writeStaged(db, staging, staged, options.signal, (records) => progress('writing', records, staged.records, file.size));
  } catch (error) {
    if (error instanceof BackupError || error instanceof StorageError) throw error;
    if (error instanceof Dexie.DexieError && error.inner instanceof BackupError) throw error.inner;
    throw toStorageError(error);
  } finally {
    await removeRestoreStaging(staging).catch(() => undefined);
  }
}

/** The same from text in memory (tests, small files). */
export function restoreBackup(db: PausepointDb, text: string, options: RestoreOptions = {}): Promise<RestoreResult> {
  return restoreBackupFile(db, new Blob([text]), options);
}

/** Refuses, unread, a file whose restore would not fit in this browser's free storage; says nothing when the browser gives no estimate. */
async function checkSpace(size: number, estimate: StorageEstimator): Promise<void> {
  const answer = await estimate().catch(() => undefined);
  if (answer?.quota === undefined || answer.usage === undefined) return;
  const free = Math.max(0, answer.quota - answer.usage);
  const needed = size * SPACE_PER_BYTE;
  if (needed <= free) return;
  const mb = (bytes: number) => `${(bytes / MEGABYTE).toFixed(1)} MB`;
  throw new BackupError(
    'no_space',
    `This backup is ${mb(size)}. Restoring it needs about ${mb(needed)} of free storage (its records are set aside while they are checked, then written), and this browser has ${mb(free)} free for Pausepoint. Free space on this device, or delete conversations you no longer need here, then restore again. The file was not read. ${NOTHING}`,
  );
}

/**
 * Refuses the file when a gate card shows another call than the one approving
 * it would run (record-link-problem.ts): checked against its conversation's
 * call of that id as the file has it (the last of an id wins: stage-backup.ts)
 * and the call's ledger entry. The cards are read a page at a time; the
 * refusal names the first card of the file with a problem.
 */
async function refuseGateCards(staging: RestoreStaging): Promise<void> {
  let first: { index: number; pause: PausePoint; problem: string } | undefined;
  for await (const page of keysetPages(staging.pausePoints, CARDS_PAGE)) {
    const cards = page.filter((row) => row.record.origin === 'gate');
    const keys = cards.map(({ record }) => ledgerId(record.conversationId, record.toolCallId));
    const [calls, entries] = await Promise.all([staging.calls.bulkGet(keys), staging.ledger.bulkGet(keys)]);
    cards.forEach(({ record: pause, index }, i) => {
      const problem = gateCardProblem(pause, calls[i]?.call, entries[i]?.record);
      if (problem !== undefined && (first === undefined || index < first.index)) first = { index, pause, problem };
    });
  }
  if (first !== undefined) {
    throw new BackupError('invalid_record', `Record ${first.index} of pausePoints${idLabel(first.pause)} cannot be restored: ${first.problem}. ${NOTHING}`, {
      table: 'pausePoints',
      index: first.index,
    });
  }
}

/** One conversation as it is written: through the inert path, with the files its messages name. */
interface Written {
  inert: InertConversation;
  attachments: StoredAttachment[];
  /** It was working or waiting when the backup was made, and comes back interrupted. */
  interrupted: boolean;
}

async function writeStaged(db: PausepointDb, staging: RestoreStaging, staged: StagedBackup, signal: AbortSignal | undefined, progress: (records: number) => void): Promise<RestoreResult> {
  const result = { ...emptyResult(staged.bytes), skippedInBackup: staged.skippedInBackup };
  const at = Date.now();
  const uuid = () => crypto.randomUUID();
  let records = 0;
  let seen = 0;

  async function* conversations(): AsyncGenerator<Written | undefined> {
    for await (const page of keysetPages(staging.conversations, PAGE)) {
      // A page is a run of consecutive ids, so what its conversations own is one key range of each table: one request (getAll) per table.
      const from = page[0]!.id;
      const to = page[page.length - 1]!.id;
      const owned = <T>(rows: StagedOwned<T>[]) => byConversation(rows.filter((row) => !staged.present.has(row.conversationId)));
      const [messages, pausePoints, ledger] = await Promise.all([
        staging.messages
          .where(':id')
          .between([from, Dexie.minKey], [to, Dexie.maxKey], true, true)
          .toArray()
          .then((rows) => owned(rows.flatMap((row) => row.messages))),
        staging.pausePoints.where('conversationId').between(from, to, true, true).toArray().then(owned),
        staging.ledger.where('conversationId').between(from, to, true, true).toArray().then(owned),
      ]);
      for (const { record: conversation } of page) {
        seen++;
        if (staged.present.has(conversation.id)) {
          result.conversationsKept++;
          yield undefined;
          continue;
        }
        const of = <T>(rows: Map<string, StagedOwned<T>[]>) => (rows.get(conversation.id) ?? []).sort((x, y) => x.index - y.index).map((row) => row.record);
        const inert = inertConversation(
          { conversation, messages: of(messages), pausePoints: of(pausePoints), ledger: of(ledger) },
          { source: 'backup', at, conversationId: conversation.id, uuid },
        );
        // The files of the messages written, and only theirs, under the ids the messages give them now.
        const files = [...inert.attachmentIds];
        const stored = await staging.attachments.bulkGet(files.map(([old]) => old));
        const attachments = files.flatMap(([, id], i) => {
          const row = stored[i]?.record;
          return row ? [{ ...row, id, createdAt: Math.min(row.createdAt, at) }] : [];
        });
        yield { inert, attachments, interrupted: inert.conversation.state.kind === 'error' && conversation.state.kind !== 'error' };
      }
    }
  }

  const end = await writeInBatches(conversations(), {
    write: (batch) => writeConversations(db, batch),
    onWritten: (batch) => {
      for (const { inert, attachments, interrupted } of batch) {
        result.conversations++;
        result.messages += inert.messages.length;
        result.pausePoints += inert.pausePoints.length;
        result.ledger += inert.ledger.length;
        result.attachments += attachments.length;
        if (interrupted) result.interrupted++;
        records += 1 + inert.messages.length + inert.pausePoints.length + inert.ledger.length + attachments.length;
      }
      progress(records);
    },
    maxItems: BATCH_CONVERSATIONS,
    maxWeight: BATCH_WEIGHT,
    weigh: ({ inert, attachments }) => inert.messages.reduce((n, m) => n + m.content.length, 0) + attachments.reduce((n, a) => n + a.size, 0),
    signal,
  });
  if (end.stop === 'cancelled') {
    const total = await staging.conversations.count();
    return { ...result, stopped: { reason: 'cancelled', while: 'writing' }, conversationsLeft: total - seen };
  }
  await writeTheRest(db, staging, staged, at, result);
  return result;
}

/** A page's records of each conversation. */
function byConversation<T>(rows: readonly StagedOwned<T>[]): Map<string, StagedOwned<T>[]> {
  const by = new Map<string, StagedOwned<T>[]>();
  for (const row of rows) {
    const list = by.get(row.conversationId);
    if (list) list.push(row);
    else by.set(row.conversationId, [row]);
  }
  return by;
}

/** One batch of whole conversations, in one transaction: a cancel or a failure part way leaves whole conversations only. */
async function writeConversations(db: PausepointDb, batch: readonly Written[]): Promise<void> {
  await db.transaction('rw', [db.conversations, db.messages, db.attachments, db.pausePoints, db.ledger], async () => {
    await db.conversations.bulkPut(batch.map((w) => w.inert.conversation));
    await db.messages.bulkPut(batch.flatMap((w) => w.inert.messages));
    await db.attachments.bulkAdd(batch.flatMap((w) => w.attachments));
    await db.pausePoints.bulkPut(batch.flatMap((w) => w.inert.pausePoints));
    await db.ledger.bulkPut(batch.flatMap((w) => w.inert.ledger));
  });
}
