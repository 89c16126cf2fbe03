import Dexie, { type EntityTable } from 'dexie';
import type { Note } from './records/note-record.ts';
import type { ApprovalRule, AuditEvent, Conversation, LedgerEntry, Message, PausePoint, RuleStateEvent } from '../engine/records/index.ts';
import type { McpServerRecord } from './records/mcp-server-record.ts';
import type { StoredMcpOAuthRecord } from './records/mcp-oauth-record.ts';
import type { RemoteDecision, SyncDevice, SyncDocState } from './records/sync-records.ts';
import { moveApiKeyToOrigin } from './move-api-key-to-origin.ts';
import type { StoredAttachment } from './stored-attachment.ts';
import type { SearchBlockRow, SearchCoveredRow, SearchShardRow, SearchStateRow } from './records/search-records.ts';

/**
 * One row per key: `settings`, `deviceId`, and `apiKeys` (api-keys.ts), where
 * the API keys live and nowhere else (never in backups or exports).
 */
export interface SettingRow {
  key: string;
  value: unknown;
}

/** The schema version 4 upgraded, the one version with an upgrade of its own. */
const VERSION_4 = {
  // By state: each tab finds the conversations left running elsewhere without reading them all.
  conversations: 'id, updatedAt, state.kind',
  messages: 'id, [conversationId+seq]',
  pausePoints: 'id, conversationId, status, createdAt, toolCallId',
  ledger: 'id, conversationId',
  notes: 'id, updatedAt',
  settings: 'key',
  approvalRules: 'id, tool',
};

/**
 * The one database the page and every worker open. String (uuid) keys only and
 * additive changes only, so a sync engine can be added later. Bump the version
 * only when an index changes; record shapes carry their own `v`.
 */
export class PausepointDb extends Dexie {
  // `declare`: Dexie makes each table a property as the schema names it; a class field would only add its name to the page's start.
  declare conversations: EntityTable<Conversation, 'id'>;
  declare messages: EntityTable<Message, 'id'>;
  declare pausePoints: EntityTable<PausePoint, 'id'>;
  declare ledger: EntityTable<LedgerEntry, 'id'>;
  declare notes: EntityTable<Note, 'id'>;
  declare settings: EntityTable<SettingRow, 'key'>;
  /** The rules as their events fold (fold-rule-events.ts), with this device's use of each: what the engine reads. */
  declare approvalRules: EntityTable<ApprovalRule, 'id'>;
  /** Every rule's events, immutable (rule-state-event.ts): what rules are made of, and what syncs of them. */
  declare ruleEvents: EntityTable<RuleStateEvent, 'id'>;
  /** MCP servers, with their secrets (bearer tokens, headers): never in backups or exports. */
  declare mcpServers: EntityTable<McpServerRecord, 'id'>;
  /** MCP servers' OAuth tokens and client registrations, one row per server: never in backups or exports. */
  declare mcpOAuth: EntityTable<StoredMcpOAuthRecord, 'serverId'>;
  /** The bytes of files attached to user messages (stored-attachment.ts), by the id their refs name. */
  declare attachments: EntityTable<StoredAttachment, 'id'>;
  /** What the audit log records besides pause points: rule changes, changed MCP tools (append-only). */
  declare auditEvents: EntityTable<AuditEvent, 'id'>;

  /** The person's paired devices, as their own documents on the sync server say (src/sync). */
  declare syncDevices: EntityTable<SyncDevice, 'id'>;
  /** The decisions this device claimed on the sync server, and what each claim came to. */
  declare remoteDecisions: EntityTable<RemoteDecision, 'pausePointId'>;
  /** Per synced record: its document on the server, the revision and version counter last seen, and what was pushed. */
  declare syncDocs: EntityTable<SyncDocState, 'key'>;

  /**
   * Conversation search's index (src/storage/records/search-records.ts), kept here so
   * every tab reads the one a single builder wrote: posting lists by term (in shards),
   * the terms of each block of messages or cards, what each conversation's
   * blocks cover, and the index's format. Derived from the records above,
   * never in backups, exports or sync: it is rebuilt from them.
   */
  declare searchTerms: EntityTable<SearchShardRow, 'term'>;
  declare searchBlocks: EntityTable<SearchBlockRow, 'id'>;
  declare searchCovered: EntityTable<SearchCoveredRow, 'conversationId'>;
  declare searchState: EntityTable<SearchStateRow, 'key'>;

  /** The same database over a second connection whose writes are `strict`; opened on first use (see `strict`). */
  #strict: PausepointDb | undefined;

  constructor(name = 'pausepoint', durability: 'relaxed' | 'strict' = 'relaxed') {
    /*
     * `relaxed`: a write transaction counts as committed once the browser has
     * handed it to the operating system, not once it is on disk (what Firefox
     * and Safari do for every transaction, and Chromium too when asked for
     * nothing). It survives a crash of the tab or of the browser; a power cut
     * or an OS crash may lose the last moments of writes. None of the
     * guarantees rests on more than that:
     *  - first decision wins: a compare-and-set is about order, which
     *    IndexedDB keeps for every transaction whatever its durability;
     *  - a decision is committed before its continuation starts: the run
     *    reads it back from the store, after its commit;
     *  - a decision lost to a power cut leaves its card pending again, to be
     *    decided again; its call cannot have run, since the ledger's
     *    `started` record, the one write made `strict` (begin-execution.ts),
     *    comes after it in the database's log and is flushed with it.
     */
    super(name, { chromeTransactionDurability: durability });
    // Closed with this connection (a close, a delete, another tab's upgrade), free to reopen on its next write.
    this.on('close', () => this.#strict?.close({ disableAutoOpen: false }));
    // Only the versions with an upgrade of their own, and the current one. Dexie (since 3.0) reads the installed
    // schema from the database itself and diffs it with each declared version above it, so a version that only added
    // tables or indexes needs no declaration; and each one declared costs every start, the page's and each worker's
    // (Dexie rebuilds its tables for each: 13 versions took 16–21 ms in Node, these two 2 ms). db.test.ts keeps every
    // version as it was declared, and checks that a database each one left opens with the same stores and indexes.
    // Data only: the settings row's one API key becomes the key of its endpoint's origin.
    this.version(4)
      .stores(VERSION_4)
      .upgrade((tx) => moveApiKeyToOrigin(tx.table('settings')));
    this.version(14).stores({
      ...VERSION_4,
      // Answers with usage by when they were written: the day's and month's usage read only the calls in their period.
      messages: 'id, [conversationId+seq], [createdAt+usage.model]',
      mcpServers: 'id',
      mcpOAuth: 'serverId',
      // Read by the export in (at, id) order.
      auditEvents: 'id, [at+id]',
      syncDevices: 'id',
      remoteDecisions: 'pausePointId, conversationId, state',
      syncDocs: 'key',
      attachments: 'id',
      searchTerms: 'term',
      searchBlocks: 'id',
      searchCovered: 'conversationId',
      searchState: 'key',
      // A rule stored before its events gets the event that made it when first changed or synced (rule-events-repo.ts
      // `adoptStoredRules`): no upgrade code, since the page opens this database at start and has no room for it.
      ruleEvents: 'id, ruleId, [device+seq]',
    });
  }

  /**
   * This database through a connection whose write transactions wait until
   * their changes are on disk: for the ledger's `started` record, the one
   * write a side effect waits on (see begin-execution.ts). A Dexie
   * connection of its own, because Dexie gives every transaction of a
   * connection the durability it was opened with; its writes reach the live
   * queries of every tab as any other Dexie write does.
   */
  get strict(): PausepointDb {
    return (this.#strict ??= new PausepointDb(this.name, 'strict'));
  }
}
