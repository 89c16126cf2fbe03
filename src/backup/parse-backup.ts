import type { z } from 'zod';
import { yieldToEventLoop } from '../common/yield-to-event-loop.ts';
import { ledgerId, type Message, type ToolCall } from '../engine/records/index.ts';
import { checkBackupAttachments } from './backup-attachments.ts';
import { BackupError } from './backup-error.ts';
import {
  BACKUP_ENVELOPES,
  BACKUP_FORMAT,
  BACKUP_VERSION,
  BackupSettings,
  RECORD_SCHEMAS,
  RECORD_TABLES,
  READABLE_VERSIONS,
  type BackupRecords,
  type ReadableVersion,
  type RecordTable,
  type ValidBackup,
} from './backup-format.ts';
import { gateCardProblem, recordLinkProblem } from './record-link-problem.ts';
import { settingsEndpointProblem } from './settings-endpoint-problem.ts';

export interface ParseProgress {
  /** Records checked so far. */
  checked: number;
  total: number;
}

export interface ParseOptions {
  onProgress?: (progress: ParseProgress) => void;
  /** Records checked between turns of the event loop. */
  batchSize?: number;
}

const NOTHING = 'Nothing was restored.';

/**
 * Reads and checks a whole backup file; throws a `BackupError` naming the first
 * problem. Checks come from the outside in, so a file gets the most useful
 * refusal: not JSON, then not a backup, then a version this app cannot read,
 * then a broken structure, then the first bad record (table and index): one
 * that breaks its schema, repeats an id, or points outside the file (see
 * record-link-problem.ts), and for a gate card, one that shows another call than
 * the one approving it would run; then settings that break their schema or point a
 * named provider elsewhere. Every record is checked before anything is written.
 */
export async function parseBackup(text: string, { onProgress, batchSize = 500 }: ParseOptions = {}): Promise<ValidBackup> {
  const json = parseJson(text);
  const version = checkFormatAndVersion(json);
  const envelope = BACKUP_ENVELOPES[version].safeParse(json);
  if (!envelope.success) {
    throw new BackupError('invalid_file', `This backup file is damaged: ${oneLine(envelope.error)}. ${NOTHING}`, { cause: envelope.error });
  }
  const { data } = envelope.data;
  // Version 1 had no approval rules.
  const stored: Record<RecordTable, unknown[]> = {
    conversations: data.conversations,
    messages: data.messages,
    pausePoints: data.pausePoints,
    ledger: data.ledger,
    notes: data.notes,
    approvalRules: 'approvalRules' in data ? data.approvalRules : [],
    // Versions 1 and 2 carried no audit events.
    auditEvents: ('auditEvents' in data ? data.auditEvents : undefined) ?? [],
  };

  const total = RECORD_TABLES.reduce((sum, table) => sum + stored[table].length, 0);
  let checked = 0;
  const conversations = new Set<string>();
  /** Every record of one table, checked against its schema and the file's conversations, with no id twice. */
  const checkTable = async <T extends { id: string }>(table: RecordTable, schema: z.ZodType<T>, problemOf?: (record: T) => string | undefined): Promise<T[]> => {
    const rows = stored[table];
    const seen = new Set<string>();
    const valid: T[] = [];
    for (let index = 0; index < rows.length; index++) {
      const parsed = schema.safeParse(rows[index]);
      if (!parsed.success) {
        throw new BackupError(
          'invalid_record',
          `Record ${index} of ${table}${idLabel(rows[index])} is invalid: ${oneLine(parsed.error)}. ${NOTHING}`,
          { table, index, cause: parsed.error },
        );
      }
      if (seen.has(parsed.data.id)) {
        throw new BackupError('invalid_record', `Record ${index} of ${table} repeats the id "${parsed.data.id.slice(0, 80)}". ${NOTHING}`, { table, index });
      }
      const problem = recordLinkProblem(table, parsed.data, conversations) ?? problemOf?.(parsed.data);
      if (problem !== undefined) {
        throw new BackupError('invalid_record', `Record ${index} of ${table}${idLabel(rows[index])} cannot be restored: ${problem}. ${NOTHING}`, { table, index });
      }
      seen.add(parsed.data.id);
      valid.push(parsed.data);
      if (++checked % batchSize === 0) {
        onProgress?.({ checked, total });
        await yieldToEventLoop();
      }
    }
    return valid;
  };
  // Conversations first: every other table is checked against them.
  const restoredConversations = await checkTable('conversations', RECORD_SCHEMAS.conversations);
  for (const conversation of restoredConversations) conversations.add(conversation.id);
  const messages = await checkTable('messages', RECORD_SCHEMAS.messages);
  // The ledger before the cards: a gate card is checked against its call and the call's entry.
  const ledger = await checkTable('ledger', RECORD_SCHEMAS.ledger);
  const calls = toolCallsOf(messages);
  const entries = new Map(ledger.map((entry) => [entry.id, entry]));
  const pausePoints = await checkTable('pausePoints', RECORD_SCHEMAS.pausePoints, (pause) => {
    const key = ledgerId(pause.conversationId, pause.toolCallId);
    return gateCardProblem(pause, calls.get(key), entries.get(key));
  });
  const records: BackupRecords = {
    conversations: restoredConversations,
    messages,
    pausePoints,
    ledger,
    notes: await checkTable('notes', RECORD_SCHEMAS.notes),
    approvalRules: await checkTable('approvalRules', RECORD_SCHEMAS.approvalRules),
    auditEvents: await checkTable('auditEvents', RECORD_SCHEMAS.auditEvents),
  };
  onProgress?.({ checked, total });
  // Versions 1 and 2, and version 3 before attachments, carried no files.
  const attachments = await checkBackupAttachments(('attachments' in data ? data.attachments : undefined) ?? [], messages);

  return {
    version,
    createdAt: envelope.data.createdAt,
    appVersion: envelope.data.appVersion,
    records,
    attachments,
    settings: checkSettings(data.settings),
    skipped: envelope.data.skipped,
  };
}

/** The file's tool calls, keyed as their ledger entries are (`ledgerId`): call ids are unique per conversation only. */
function toolCallsOf(messages: readonly Message[]): Map<string, ToolCall> {
  const calls = new Map<string, ToolCall>();
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const call of message.toolCalls) calls.set(ledgerId(message.conversationId, call.id), call);
  }
  return calls;
}

function checkSettings(stored: unknown): BackupSettings | null {
  if (stored === null || stored === undefined) return null;
  const parsed = BackupSettings.safeParse(stored);
  if (!parsed.success) {
    throw new BackupError('invalid_record', `The settings in this backup are invalid: ${oneLine(parsed.error)}. ${NOTHING}`, {
      table: 'settings',
      cause: parsed.error,
    });
  }
  const problem = settingsEndpointProblem(parsed.data);
  if (problem !== undefined) {
    throw new BackupError('invalid_record', `The settings in this backup cannot be restored: ${problem}. ${NOTHING}`, { table: 'settings' });
  }
  return parsed.data;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new BackupError(
      'not_json',
      `This file is not a readable backup: it is not valid JSON, or it was cut off (${error instanceof Error ? error.message : String(error)}). ${NOTHING}`,
      { cause: error },
    );
  }
}

function checkFormatAndVersion(json: unknown): ReadableVersion {
  const format = isRecord(json) ? json.format : undefined;
  if (format !== BACKUP_FORMAT) {
    const what =
      format === 'pausepoint.audit-log'
        ? 'it is an audit log export, which holds decisions only and cannot be restored'
        : typeof format === 'string'
          ? `its format is "${format.slice(0, 80)}"`
          : 'it has no "format" field';
    throw new BackupError('foreign_format', `This file is not a Pausepoint backup: ${what}. ${NOTHING}`);
  }
  const version = (json as { version?: unknown }).version;
  if (typeof version === 'number' && Number.isInteger(version) && version > BACKUP_VERSION) {
    throw new BackupError(
      'future_version',
      `This backup was made by a newer version of Pausepoint (backup version ${version}; this app reads versions up to ${BACKUP_VERSION}). Update Pausepoint, then restore it. ${NOTHING}`,
    );
  }
  const readable = READABLE_VERSIONS.find((known) => known === version);
  if (readable === undefined) {
    throw new BackupError('invalid_file', `This backup has an unknown version (${JSON.stringify(version)?.slice(0, 40)}). ${NOTHING}`);
  }
  return readable;
}

function idLabel(record: unknown): string {
  const id = isRecord(record) ? record.id : undefined;
  return typeof id === 'string' ? ` (id "${id.slice(0, 80)}")` : '';
}

/** zod's report on one line, the first few issues only: the message is shown to a person. */
function oneLine(error: z.ZodError): string {
  const issues = error.issues.slice(0, 3).map((issue) => `${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}`);
  const more = error.issues.length > 3 ? ` (and ${error.issues.length - 3} more)` : '';
  return issues.join('; ') + more;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
