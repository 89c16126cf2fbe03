import { z } from 'zod';
import { ApprovalRule, AuditEvent, Conversation, LedgerEntry, Message, PausePoint } from '../engine/records/index.ts';
import { StoredSettings } from '../storage/settings-repo.ts';
import type { StoredAttachment } from '../storage/stored-attachment.ts';
import { NoteRecord, type Note } from '../storage/records/note-record.ts';

/**
 * A backup file, version 3:
 *
 * ```
 * { "format": "pausepoint.backup", "version": 3, "createdAt": ISO time, "appVersion": "0.1.0",
 *   "data": { "conversations": [...], "messages": [...], "pausePoints": [...], "ledger": [...],
 *             "notes": [...], "approvalRules": [...], "auditEvents": [...], "attachments": [...],
 *             "settings": {...} | null },
 *   "skipped": [{ "table", "id", "reason" }] }
 * ```
 *
 * Records are stored exactly as the database holds them (camelCase, each with
 * its own `v`). `settings` is the settings row's value without `apiKey`; the
 * device id is left out because it names the browser, not the data. `skipped`
 * lists stored records that were unreadable when the backup was made, or that
 * point at a conversation the backup does not hold.
 *
 * `attachments` (optional) holds the files the file's messages name, each
 * with its bytes in base64 and its SHA-256, checked on restore
 * (backup-attachments.ts). Added to version 3 without a new version, on
 * purpose: a file without it is what every earlier version 3 wrote, and an
 * app from before attachments restores a file with it whole but for the files
 * (it drops fields it does not know), where a new version would refuse it all.
 *
 * `auditEvents` (optional) is the audit log's history besides the pause
 * points: rule changes, dry runs, changed MCP tools. Version 2 is the same
 * without it, version 1 without `approvalRules` too (each read as none). Old files are
 * history: tests load samples from tests/fixtures/backup. A change that stops
 * them parsing needs a new version and a migration, not new samples.
 */
export const BACKUP_FORMAT = 'pausepoint.backup';
export const BACKUP_VERSION = 3;
/** Every version this app restores; each older one is read as the current shape. */
export const READABLE_VERSIONS = [1, 2, 3] as const;
export type ReadableVersion = (typeof READABLE_VERSIONS)[number];

/** The record tables, in the order a backup writes them (and a streamed restore reads them: conversations first). */
export const RECORD_TABLES = ['conversations', 'messages', 'pausePoints', 'ledger', 'notes', 'approvalRules', 'auditEvents'] as const;
export type RecordTable = (typeof RECORD_TABLES)[number];

export const RECORD_SCHEMAS = {
  conversations: Conversation,
  messages: Message,
  pausePoints: PausePoint,
  ledger: LedgerEntry,
  notes: NoteRecord,
  approvalRules: ApprovalRule,
  auditEvents: AuditEvent,
} as const satisfies Record<RecordTable, z.ZodType>;

export interface BackupRecords {
  conversations: Conversation[];
  messages: Message[];
  pausePoints: PausePoint[];
  ledger: LedgerEntry[];
  notes: Note[];
  approvalRules: ApprovalRule[];
  auditEvents: AuditEvent[];
}

/** The settings a backup carries: everything but the API key. */
export const BackupSettings = StoredSettings.omit({ apiKey: true });
export type BackupSettings = z.infer<typeof BackupSettings>;

export const SkippedRecord = z.object({ table: z.string(), id: z.string(), reason: z.string() });
export type SkippedRecord = z.infer<typeof SkippedRecord>;

const tables = {
  conversations: z.array(z.unknown()),
  messages: z.array(z.unknown()),
  pausePoints: z.array(z.unknown()),
  ledger: z.array(z.unknown()),
  notes: z.array(z.unknown()),
  settings: z.unknown(),
};

/** The file's outer shape, per version; each record is checked on its own so an error can name its table and index. */
export const BACKUP_ENVELOPES = {
  1: z.object({
    format: z.literal(BACKUP_FORMAT),
    version: z.literal(1),
    createdAt: z.iso.datetime({ offset: true }),
    appVersion: z.string(),
    data: z.object(tables),
    skipped: z.array(SkippedRecord).default([]),
  }),
  2: z.object({
    format: z.literal(BACKUP_FORMAT),
    version: z.literal(2),
    createdAt: z.iso.datetime({ offset: true }),
    appVersion: z.string(),
    data: z.object({ ...tables, approvalRules: z.array(z.unknown()) }),
    skipped: z.array(SkippedRecord).default([]),
  }),
  3: z.object({
    format: z.literal(BACKUP_FORMAT),
    version: z.literal(3),
    createdAt: z.iso.datetime({ offset: true }),
    appVersion: z.string(),
    data: z.object({
      ...tables,
      approvalRules: z.array(z.unknown()),
      auditEvents: z.array(z.unknown()).optional(),
      attachments: z.array(z.unknown()).optional(),
    }),
    skipped: z.array(SkippedRecord).default([]),
  }),
} as const satisfies Record<ReadableVersion, z.ZodType>;

/** A backup that passed every check: what a restore may write. */
export interface ValidBackup {
  /** The version the file was written in (its records are read as the current shape). */
  version: ReadableVersion;
  createdAt: string;
  appVersion: string;
  records: BackupRecords;
  /** The files the messages name, their bytes checked against their hashes. */
  attachments: StoredAttachment[];
  settings: BackupSettings | null;
  skipped: SkippedRecord[];
}

/** `pausepoint-backup-2026-01-31.json`, by the local date. */
export function backupFileName(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `pausepoint-backup-${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}.json`;
}
