import Dexie from 'dexie';
import type { z } from 'zod';
import { jsonEqual } from '../engine/json-equal.ts';
import { API_KEYS_KEY, apiKeyFor } from '../storage/api-keys.ts';
import { createRule } from '../storage/approval-rules-repo.ts';
import { ruleEvent } from '../storage/audit-events-repo.ts';
import type { PausepointDb } from '../storage/db.ts';
import { StoredSettings } from '../storage/settings-repo.ts';
import { toStorageError } from '../storage/storage-error.ts';
import { BackupError } from './backup-error.ts';
import { MAX_BACKUP_FILE_BYTES, type BackupRecords, type BackupSettings, type ValidBackup } from './backup-format.ts';
import { clampAuditEvent, clampDated, inertConversation, inertRule, type InertConversation } from '../inert/index.ts';
import type { StoredAttachment } from '../storage/stored-attachment.ts';
import { parseBackup, type ParseOptions } from './parse-backup.ts';
import { stricterSettings, type KeptSetting } from './stricter-settings.ts';

export interface RestoreResult {
  /** Conversations written (with their messages, pause points and ledger records). */
  conversations: number;
  messages: number;
  /** Attached files written, with the messages that name them. */
  attachments: number;
  pausePoints: number;
  ledger: number;
  notes: number;
  /** Approval rules written; `allowRulesOff` of them are allow rules, written switched off. */
  approvalRules: number;
  allowRulesOff: number;
  /** Audit events written, as history (those already here are kept as they are). */
  auditEvents: number;
  /** Conversations written that were working when the backup was made: they wait for Continue. */
  interrupted: number;
  /** Conversations in the backup that were already here and were left as they are. */
  conversationsKept: number;
  /**
   * `restored`: the backup's settings were written (this browser's API keys, stored per
   * endpoint origin, are untouched); `unchanged`: they equal the current ones; `kept_current`:
   * this browser's settings point at another endpoint and were kept; `absent`: the backup has none.
   */
  settings: 'restored' | 'unchanged' | 'kept_current' | 'absent';
  /** True when settings were restored with no API key to go with them: the user must enter one. */
  apiKeyMissing: boolean;
  /**
   * The spending bounds kept from this browser where the backup's were looser
   * (a limit dropped or raised, a price lowered or dropped): see stricter-settings.ts.
   * Empty unless `settings` is `restored`.
   */
  keptStricter: KeptSetting[];
  /** Records the backup itself says were unreadable when it was made (and so are not in it). */
  skippedInBackup: number;
}

const SETTINGS_KEY = 'settings';
const MEGABYTE = 1_000_000;

/**
 * Restores a backup file chosen by the person: refused unread when it is larger
 * than `MAX_BACKUP_FILE_BYTES`, otherwise read as text and restored.
 */
export async function restoreBackupFile(db: PausepointDb, file: Blob, options: ParseOptions = {}): Promise<RestoreResult> {
  if (file.size > MAX_BACKUP_FILE_BYTES) {
    throw new BackupError(
      'too_large',
      `This file is ${(file.size / MEGABYTE).toFixed(1)} MB; Pausepoint restores backups of up to ${MAX_BACKUP_FILE_BYTES / MEGABYTE} MB, so it was not read. Nothing was restored.`,
    );
  }
  return restoreBackup(db, await file.text(), options);
}

/**
 * Restores a backup file's text into `db`. Every record is checked first
 * (`parseBackup` throws a `BackupError` for a bad file, and nothing is written);
 * then all writes happen in one read-write transaction, so a failure part way
 * (the disk full) leaves the database as it was and is thrown as a `StorageError`.
 *
 * What comes back passes the inert path (src/inert/): no conversation comes
 * back running, no call of the file runs or asks, no card or decision of the
 * file is honoured, its instructions are off, its usage is history, no allow
 * rule is on; every record but the conversation's own id is given a fresh id.
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
 * Restoring the same file twice therefore writes nothing the second time.
 */
export async function restoreBackup(db: PausepointDb, text: string, options: ParseOptions = {}): Promise<RestoreResult> {
  return writeBackupRecords(db, await parseBackup(text, options));
}

async function writeBackupRecords(db: PausepointDb, backup: ValidBackup): Promise<RestoreResult> {
  const { records } = backup;
  try {
    const tables = [db.conversations, db.messages, db.pausePoints, db.ledger, db.notes, db.approvalRules, db.ruleEvents, db.settings, db.auditEvents, db.attachments];
    return await db.transaction('rw', tables, async () => {
      const present = await presentConversations(db, records.conversations);
      const absent = <T extends { conversationId: string }>(rows: T[]) => rows.filter((row) => !present.has(row.conversationId));
      const owned = {
        messages: absent(records.messages),
        pausePoints: absent(records.pausePoints),
        ledger: absent(records.ledger),
      };
      await refuseTakenIds(db, records, owned);
      const rules = await missingRules(db, records.approvalRules.filter((rule) => rule.scope.kind !== 'conversation' || !present.has(rule.scope.conversationId)));
      const conversations = records.conversations.filter((conversation) => !present.has(conversation.id));
      const at = Date.now();
      const written = inertBackup(conversations, owned, at);
      const notes = (await newerNotes(db, records.notes)).map((note) => clampDated(note, at));
      const approvalRules = rules.map((rule) => inertRule(rule, at));
      const auditEvents = (await missingEvents(db, records.auditEvents)).map((event) => clampAuditEvent(event, at));
      const settings = await restoreSettings(db, backup.settings);

      await db.conversations.bulkPut(written.conversations);
      await db.messages.bulkPut(written.messages);
      // The files of the messages written, and only theirs (a kept conversation keeps its own), under their new ids.
      const attachments = written.attachments(backup.attachments);
      await refuseTakenAttachments(db, attachments);
      await db.attachments.bulkAdd(attachments);
      await db.pausePoints.bulkPut(written.pausePoints);
      await db.ledger.bulkPut(written.ledger);
      await db.notes.bulkPut(notes);
      // Each as the event that makes it, written by this device (rule-events-repo.ts).
      for (const rule of approvalRules) await createRule(db, rule);
      // Each rule a restore brings is in the audit log, as it came back (allow rules switched off).
      await db.auditEvents.bulkAdd(auditEvents);
      await db.auditEvents.bulkAdd(approvalRules.map((rule) => ruleEvent('rule_restored', rule, { id: crypto.randomUUID(), at })));
      if (settings.write) await db.settings.put({ key: SETTINGS_KEY, value: settings.write });

      return {
        conversations: written.conversations.length,
        messages: written.messages.length,
        attachments: attachments.length,
        pausePoints: written.pausePoints.length,
        ledger: written.ledger.length,
        notes: notes.length,
        approvalRules: approvalRules.length,
        allowRulesOff: approvalRules.filter((rule) => rule.effect === 'allow').length,
        auditEvents: auditEvents.length,
        interrupted: written.conversations.filter((conversation, index) => conversation.state.kind === 'error' && conversations[index]?.state.kind !== 'error').length,
        conversationsKept: records.conversations.length - written.conversations.length,
        settings: settings.outcome,
        apiKeyMissing: settings.apiKeyMissing,
        keptStricter: settings.kept,
        skippedInBackup: backup.skipped.length,
      };
    });
  } catch (error) {
    // Thrown inside the transaction (which it aborted): the file's fault, not the database's.
    if (error instanceof BackupError) throw error;
    if (error instanceof Dexie.DexieError && error.inner instanceof BackupError) throw error.inner;
    throw toStorageError(error);
  }
}

/** Ids of the backup's conversations that exist here. */
async function presentConversations(db: PausepointDb, conversations: BackupRecords['conversations']): Promise<Set<string>> {
  const keys = conversations.map((conversation) => conversation.id);
  const found = await db.conversations.bulkGet(keys);
  return new Set(keys.filter((_, index) => found[index] !== undefined));
}

/** Refuses the file when a record it would write has an id a record here already has (see `restoreBackup`). */
async function refuseTakenIds(
  db: PausepointDb,
  records: BackupRecords,
  owned: Pick<BackupRecords, 'messages' | 'pausePoints' | 'ledger'>,
): Promise<void> {
  const tables = [
    ['messages', db.messages, 'a message'],
    ['pausePoints', db.pausePoints, 'an approval'],
    ['ledger', db.ledger, 'a ledger entry'],
  ] as const;
  for (const [table, store, what] of tables) {
    const rows: readonly { id: string }[] = owned[table];
    const here = await store.bulkGet(rows.map((row) => row.id));
    const taken = rows.find((_, index) => here[index] !== undefined);
    if (taken === undefined) continue;
    const index = (records[table] as readonly { id: string }[]).indexOf(taken);
    throw new BackupError(
      'conflict',
      `Record ${index} of ${table} (id "${taken.id.slice(0, 80)}") has the id of ${what} already in this browser, in another conversation; restoring it would replace that one. Nothing was restored.`,
      { table, index },
    );
  }
}

/** Refuses the file when an attached file it would write has the id of one here: writing it would replace those bytes. */
async function refuseTakenAttachments(db: PausepointDb, rows: readonly StoredAttachment[]): Promise<void> {
  const here = await db.attachments.bulkGet(rows.map((row) => row.id));
  const index = here.findIndex((row) => row !== undefined);
  if (index === -1) return;
  throw new BackupError(
    'conflict',
    `An attached file of the backup (id "${rows[index]!.id.slice(0, 80)}") has the id of a file already in this browser; restoring it would replace that file. Nothing was restored.`,
    { table: 'attachments', index },
  );
}

/** The backup's rules whose ids were never here: a rule here is kept as it is, and one removed here stays removed. */
async function missingRules(db: PausepointDb, rules: BackupRecords['approvalRules']): Promise<BackupRecords['approvalRules']> {
  const here = await db.approvalRules.bulkGet(rules.map((rule) => rule.id));
  const known = new Set((await db.ruleEvents.where('ruleId').anyOf(rules.map((rule) => rule.id)).toArray()).map((event) => event.ruleId));
  return rules.filter((rule, index) => here[index] === undefined && !known.has(rule.id));
}

/** The backup's audit events whose ids are not here: history already here is kept as it is. */
async function missingEvents(db: PausepointDb, events: BackupRecords['auditEvents']): Promise<BackupRecords['auditEvents']> {
  const here = await db.auditEvents.bulkGet(events.map((event) => event.id));
  return events.filter((_, index) => here[index] === undefined);
}

async function newerNotes(db: PausepointDb, notes: BackupRecords['notes']): Promise<BackupRecords['notes']> {
  const current = await db.notes.bulkGet(notes.map((note) => note.id));
  return notes.filter((note, index) => {
    const here = current[index];
    return here === undefined || !(typeof here.updatedAt === 'number' && here.updatedAt >= note.updatedAt);
  });
}

interface SettingsPlan {
  outcome: RestoreResult['settings'];
  write: StoredSettingsValue | undefined;
  apiKeyMissing: boolean;
  kept: KeptSetting[];
}
type StoredSettingsValue = z.output<typeof StoredSettings>;

/** Providers that are usually run without a key: restoring their settings needs no key prompt. */
const KEYLESS_PROVIDERS: ReadonlySet<string> = new Set(['ollama', 'lmstudio', 'demo']);

async function restoreSettings(db: PausepointDb, backup: BackupSettings | null): Promise<SettingsPlan> {
  if (backup === null) return { outcome: 'absent', write: undefined, apiKeyMissing: false, kept: [] };
  const row = await db.settings.get(SETTINGS_KEY);
  const current = StoredSettings.safeParse(row?.value);
  if (current.success && current.data.baseUrl !== backup.baseUrl) {
    return { outcome: 'kept_current', write: undefined, apiKeyMissing: false, kept: [] };
  }
  const { settings: next, kept } = stricterSettings(StoredSettings.parse(backup), current.success ? current.data : undefined);
  if (current.success && sameSettings(current.data, next)) return { outcome: 'unchanged', write: undefined, apiKeyMissing: false, kept: [] };
  // The key, if any, is the one this browser saved for the restored endpoint's origin.
  const apiKey = apiKeyFor((await db.settings.get(API_KEYS_KEY))?.value, next.baseUrl);
  return { outcome: 'restored', write: next, apiKeyMissing: apiKey === '' && !KEYLESS_PROVIDERS.has(next.provider), kept };
}

/** Fields are JSON values (the prices a list of objects); a field left out equals one set to undefined. */
function sameSettings(a: StoredSettingsValue, b: StoredSettingsValue): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)] as (keyof StoredSettingsValue)[]);
  return [...keys].every((key) => jsonEqual(a[key], b[key]));
}

interface InertBackup {
  conversations: InertConversation['conversation'][];
  messages: InertConversation['messages'];
  pausePoints: InertConversation['pausePoints'];
  ledger: InertConversation['ledger'];
  /** The backup's attached files that the written messages name, each under the id its message names now. */
  attachments(rows: readonly StoredAttachment[]): StoredAttachment[];
}

/**
 * Each conversation to write, through the inert path with its own records. It
 * keeps its id (restoring the file again finds it here and writes nothing);
 * everything it owns gets a fresh id.
 */
function inertBackup(
  conversations: BackupRecords['conversations'],
  owned: Pick<BackupRecords, 'messages' | 'pausePoints' | 'ledger'>,
  at: number,
): InertBackup {
  const of = <T extends { conversationId: string }>(rows: readonly T[]) => {
    const by = new Map<string, T[]>();
    for (const row of rows) by.set(row.conversationId, [...(by.get(row.conversationId) ?? []), row]);
    return (id: string) => by.get(id) ?? [];
  };
  const messages = of(owned.messages);
  const pausePoints = of(owned.pausePoints);
  const ledger = of(owned.ledger);
  const uuid = () => crypto.randomUUID();
  const written = conversations.map((conversation) =>
    inertConversation(
      { conversation, messages: messages(conversation.id), pausePoints: pausePoints(conversation.id), ledger: ledger(conversation.id) },
      { source: 'backup', at, conversationId: conversation.id, uuid },
    ),
  );
  return {
    conversations: written.map((w) => w.conversation),
    messages: written.flatMap((w) => w.messages),
    pausePoints: written.flatMap((w) => w.pausePoints),
    ledger: written.flatMap((w) => w.ledger),
    attachments(rows) {
      const byId = new Map(rows.map((row) => [row.id, row]));
      return written.flatMap((w) =>
        [...w.attachmentIds].flatMap(([old, id]) => {
          const row = byId.get(old);
          return row ? [{ ...row, id, createdAt: Math.min(row.createdAt, at) }] : [];
        }),
      );
    },
  };
}
