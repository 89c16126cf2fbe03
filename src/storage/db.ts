import Dexie, { type EntityTable } from 'dexie';
import type { Note } from '../tools/note-record.ts';
import type { ApprovalRule, AuditEvent, Conversation, LedgerEntry, Message, PausePoint } from '../engine/records/index.ts';
import type { McpServerRecord } from '../mcp/mcp-server-record.ts';
import type { McpOAuthRecord } from '../mcp/oauth/mcp-oauth-record.ts';
import { moveApiKeyToOrigin } from './move-api-key-to-origin.ts';

/**
 * One row per key: `settings`, `deviceId`, and `apiKeys` (api-keys.ts), where
 * the API keys live and nowhere else (never in backups or exports).
 */
export interface SettingRow {
  key: string;
  value: unknown;
}

/**
 * The one database the page and every worker open. String (uuid) keys only and
 * additive changes only, so a sync engine can be added later. Bump the version
 * only when an index changes; record shapes carry their own `v`.
 */
export class PausepointDb extends Dexie {
  conversations!: EntityTable<Conversation, 'id'>;
  messages!: EntityTable<Message, 'id'>;
  pausePoints!: EntityTable<PausePoint, 'id'>;
  ledger!: EntityTable<LedgerEntry, 'id'>;
  notes!: EntityTable<Note, 'id'>;
  settings!: EntityTable<SettingRow, 'key'>;
  approvalRules!: EntityTable<ApprovalRule, 'id'>;
  /** MCP servers, with their secrets (bearer tokens, headers): never in backups or exports. */
  mcpServers!: EntityTable<McpServerRecord, 'id'>;
  /** MCP servers' OAuth tokens and client registrations, one row per server: never in backups or exports. */
  mcpOAuth!: EntityTable<McpOAuthRecord, 'serverId'>;
  /** What the audit log records besides pause points: rule changes, changed MCP tools (append-only). */
  auditEvents!: EntityTable<AuditEvent, 'id'>;

  constructor(name = 'pausepoint') {
    super(name);
    this.version(1).stores({
      conversations: 'id, updatedAt',
      messages: 'id, [conversationId+seq]',
      pausePoints: 'id, conversationId, status, createdAt, toolCallId',
      ledger: 'id, conversationId',
      notes: 'id, updatedAt',
      settings: 'key',
    });
    // Additive: lets each tab find conversations left running elsewhere without reading them all.
    this.version(2).stores({ conversations: 'id, updatedAt, state.kind' });
    // Additive: the user's approval rules (src/engine/records/approval-rule.ts).
    this.version(3).stores({ approvalRules: 'id, tool' });
    // Data only: the settings row's one API key becomes the key of its endpoint's origin.
    this.version(4)
      .stores({})
      .upgrade((tx) => moveApiKeyToOrigin(tx.table('settings')));
    // Additive: the user's MCP servers (src/mcp/mcp-server-record.ts).
    this.version(5).stores({ mcpServers: 'id' });
    // Additive: MCP servers' OAuth state (src/mcp/oauth/mcp-oauth-record.ts). Version 6 is another branch's.
    this.version(7).stores({ mcpOAuth: 'serverId' });
    // Additive: audit events (src/engine/records/audit-event.ts), read by the export in (at, id) order.
    this.version(9).stores({ auditEvents: 'id, [at+id]' });
  }
}
