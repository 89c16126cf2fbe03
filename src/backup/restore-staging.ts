import Dexie, { type EntityTable } from 'dexie';
import type { ApprovalRule, AuditEvent, Conversation, LedgerEntry, Message, PausePoint, ToolCall } from '../engine/records/index.ts';
import type { StoredAttachment } from '../storage/stored-attachment.ts';
import type { Note } from '../storage/records/note-record.ts';

/** A checked record of the file, set aside with its place in its table (`index`, for a refusal that names it). */
export interface Staged<T> {
  id: string;
  index: number;
  record: T;
}
/** The same for a record a conversation owns, found again by its conversation. */
export interface StagedOwned<T> extends Staged<T> {
  conversationId: string;
}

/**
 * One conversation's messages as they came in one batch of the file, set aside
 * as one row. A backup lists a conversation's messages together (create-backup.ts),
 * so a batch holds a few conversations' runs and this is a few writes rather
 * than one per message; a file that scatters them (backups before this one did)
 * makes rows of one. Keyed by conversation and the first one's place in the file,
 * so a page of conversations is one key range.
 */
export interface StagedMessages {
  conversationId: string;
  /** The first message's place in the file. */
  index: number;
  /** The messages' ids, a unique index over every row: a file that repeats an id is caught as it is set aside. */
  ids: string[];
  messages: StagedOwned<Message>[];
}

/**
 * A call of an assistant message of the file, under its ledger id
 * (conversation and call): what a gate card is checked against
 * (restore-backup.ts) without reading its conversation's messages back.
 * `index` is the message's place in the file.
 */
export interface StagedCall {
  id: string;
  index: number;
  call: ToolCall;
}

/**
 * Where a restore sets a backup's checked records aside while it reads the
 * file: a database of its own, beside the app's, that nothing of the app opens
 * (so nothing in it is ever shown, run or synced), removed when the restore
 * ends and, should a closed tab leave one, when the next restore begins.
 *
 * A backup lists its records table by table, so a conversation's messages,
 * cards and ledger entries lie far apart in the file; set aside here, each
 * conversation is read back whole and passes the inert path whole, holding
 * one conversation in memory rather than the file. Each table's primary key
 * is the record's id (the messages' rows have a unique index of them), so a
 * file that repeats an id is caught as it is set aside.
 */
export class RestoreStaging extends Dexie {
  declare conversations: EntityTable<Staged<Conversation>, 'id'>;
  declare messages: Dexie.Table<StagedMessages, [string, number]>;
  declare pausePoints: EntityTable<StagedOwned<PausePoint>, 'id'>;
  declare ledger: EntityTable<StagedOwned<LedgerEntry>, 'id'>;
  declare notes: EntityTable<Staged<Note>, 'id'>;
  declare approvalRules: EntityTable<Staged<ApprovalRule>, 'id'>;
  declare auditEvents: EntityTable<Staged<AuditEvent>, 'id'>;
  declare attachments: EntityTable<Staged<StoredAttachment>, 'id'>;
  declare calls: EntityTable<StagedCall, 'id'>;

  constructor(name: string) {
    super(name);
    this.version(1).stores({
      conversations: 'id',
      messages: '[conversationId+index], &*ids',
      pausePoints: 'id, conversationId',
      ledger: 'id, conversationId',
      notes: 'id',
      approvalRules: 'id',
      auditEvents: 'id',
      attachments: 'id',
      calls: 'id',
    });
  }
}

/** The staging database of the app's database named `name`: one at a time, removed first if a restore left it. */
export async function openRestoreStaging(name: string): Promise<RestoreStaging> {
  const stagingName = `${name}-restore-staging`;
  await Dexie.delete(stagingName);
  const staging = new RestoreStaging(stagingName);
  await staging.open();
  return staging;
}

/** Closes and removes the staging database: what it held was a copy of the file. */
export async function removeRestoreStaging(staging: RestoreStaging): Promise<void> {
  staging.close();
  await Dexie.delete(staging.name);
}
