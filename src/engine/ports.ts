import type { z } from 'zod';
import type { SpendingSettings } from './spending.ts';
import type { ApprovalRule, CallUsage, Conversation, LedgerEntry, Message, PausePoint, ToolCall } from './records/index.ts';

/** A message before storage gives it its place in the conversation. */
export type MessageDraft = Message extends infer M ? (M extends Message ? Omit<M, 'seq'> : never) : never;

/* ── storage ─────────────────────────────────────────────────────────────── */

export type Settlement =
  | {
      commit: true;
      pausePoint: PausePoint;
      messages: MessageDraft[];
      /**
       * Transforms the pause point's conversation in the same transaction,
       * after the messages are appended (same rules as `appendMessages`'s
       * update). `stillPending` counts the conversation's pending pause points
       * once this one is settled.
       */
      update?: (conversation: Conversation, stillPending: number) => Conversation;
    }
  | { commit: false; reason: string };

export type SettleResult =
  | { ok: true; pausePoint: PausePoint; messages: Message[] }
  | { ok: false; reason: 'not_found' }
  | { ok: false; reason: 'already_decided'; pausePoint: PausePoint }
  /** The settlement would have resolved the pause point at or after its `expiresAt` (see `resolvesPastExpiry`). */
  | { ok: false; reason: 'expired'; pausePoint: PausePoint }
  | { ok: false; reason: 'refused'; message: string };

/** What one step of the loop reads, in one transaction (see `StoragePort.loadStep`). */
export interface StepRecords {
  /** Undefined when the conversation does not exist (or was deleted). */
  conversation: Conversation | undefined;
  /** The conversation's pending pause points, oldest first. */
  pending: PausePoint[];
  /** The conversation's messages with `seq >= fromSeq`, ordered by `seq`. */
  tail: Message[];
}

/** What `StoragePort.loadCalls` reads. */
export interface CallRecords {
  pausePoints: PausePoint[];
  ledger: LedgerEntry[];
}

/**
 * Everything the engine stores. Implementations: Dexie (src/storage) and an
 * in-memory map (src/engine/testing) with the same semantics. Every method that
 * says "atomically" must be one transaction: other tabs write concurrently.
 *
 * Messages are append-only, which the engine's history cache relies on
 * (src/engine/history-cache.ts): `seq` is handed out only in the transaction
 * that writes the message (`appendMessages`, `settlePausePoint`), from the
 * conversation's `nextSeq`, which only moves forward; and `putMessage` only
 * ever replaces an assistant message that is still `streaming`. Code that
 * rewrites or removes single messages of a conversation breaks the engine
 * (deleting a whole conversation, or restoring one from a backup, does not:
 * the cache notices).
 */
export interface StoragePort {
  getConversation(id: string): Promise<Conversation | undefined>;
  putConversation(conversation: Conversation): Promise<void>;
  /** Atomically reads, transforms and writes a conversation; returns the written record. */
  updateConversation(id: string, update: (current: Conversation) => Conversation): Promise<Conversation>;
  /**
   * Atomically adds new pause points to a conversation (an id that exists is
   * a conflict, and nothing is written) and transforms the conversation,
   * which sees how many of its pause points are pending, the new ones
   * included: how a run pauses.
   */
  pauseConversation(
    id: string,
    added: readonly PausePoint[],
    update: (current: Conversation, pending: number) => Conversation,
  ): Promise<Conversation>;

  /** A conversation's messages with `seq >= fromSeq` (all by default), ordered by `seq`. */
  listMessages(conversationId: string, fromSeq?: number): Promise<Message[]>;
  /**
   * Atomically appends messages, numbering them from the conversation's
   * `nextSeq`. `update`, when given, transforms the conversation in the same
   * transaction: it gets the record with `nextSeq` and `updatedAt` already moved
   * past the drafts, and may change neither `id` nor `nextSeq`. If anything
   * fails or throws, nothing is written. Appending no drafts writes nothing,
   * the update included.
   */
  appendMessages(conversationId: string, drafts: MessageDraft[], update?: (current: Conversation) => Conversation): Promise<Message[]>;
  /**
   * What a step of the loop needs, read in one transaction so the three agree:
   * the conversation, its pending pause points, and its messages from `fromSeq` on.
   */
  loadStep(conversationId: string, fromSeq: number): Promise<StepRecords>;
  /**
   * Replaces a stored assistant message while it is `streaming` (streamed text,
   * final status). `update`, when given, transforms its conversation in the
   * same transaction, with the same rules as in `appendMessages`; if the
   * conversation is missing or the update fails, nothing is written.
   */
  putMessage(message: Message, update?: (current: Conversation) => Conversation): Promise<void>;

  getPausePoint(id: string): Promise<PausePoint | undefined>;
  /** A conversation's pause points, every status, oldest first. */
  listPausePoints(conversationId: string): Promise<PausePoint[]>;
  /** A conversation's pending pause points, oldest first, without reading the decided ones. */
  listPendingPausePoints(conversationId: string): Promise<PausePoint[]>;
  /**
   * What settling these tool calls of a conversation reads, in one
   * transaction: their pause points (every status, oldest first) and their
   * ledger entries.
   */
  loadCalls(conversationId: string, toolCallIds: readonly string[]): Promise<CallRecords>;
  createPausePoint(pausePoint: PausePoint): Promise<void>;
  /**
   * Compare-and-set: inside one transaction, reads the pause point and, only if
   * it is still `pending`, asks `settle` for its new state and the messages to
   * append with it. The first settlement wins; later ones get `already_decided`.
   * A settlement that would resolve it at or after its expiry (its `resolvedAt`
   * against `expiresAt`) is refused as `expired` and writes nothing: a card
   * past its time is never approved, whether or not a sweep has expired it yet.
   */
  settlePausePoint(id: string, settle: (pending: PausePoint) => Settlement): Promise<SettleResult>;

  getLedgerEntry(id: string): Promise<LedgerEntry | undefined>;
  /**
   * Atomically records that a tool call is about to run. Refuses (returns false)
   * when an entry exists whose status is not listed in `reopen`: this is what
   * keeps a side effect from happening twice.
   */
  beginExecution(entry: LedgerEntry, reopen?: readonly LedgerEntry['status'][]): Promise<boolean>;
  putLedgerEntry(entry: LedgerEntry): Promise<void>;
  /**
   * Atomically writes a call's final ledger entry and appends the tool result
   * the model will read: there is no moment at which a stored result lacks its
   * ledger entry, or a finished entry lacks its result.
   */
  finishExecution(entry: LedgerEntry, result: MessageDraft): Promise<Message>;
}

/* ── approval rules ──────────────────────────────────────────────────────── */

/** Every rule the user has, and whether allow rules are suspended ("Ask for everything"). */
export interface RuleSet {
  /**
   * Never changed once handed out: the evaluator indexes an array it sees
   * again (rule-index.ts). A port may hand out the same array while nothing
   * changed — the cheapest case — and must hand out a new one when anything did.
   */
  rules: readonly ApprovalRule[];
  askForEverything: boolean;
}

/**
 * The user's approval rules. Read for each decision rather than cached, so a
 * rule made or removed in another tab applies to the very next call.
 */
export interface RulesPort {
  load(): Promise<RuleSet>;
  /** Records that a rule decided a call (shown as "last used"); a rule removed meanwhile stays removed. */
  markUsed(ruleId: string, at: number): Promise<void>;
  /** Stores a rule, replacing one with the same id. (Made through `Engine.addRule`, which fills it in.) */
  put(rule: ApprovalRule): Promise<void>;
  /** Removes a rule; removing one that is not there does nothing. */
  remove(ruleId: string): Promise<void>;
}

/* ── settings ────────────────────────────────────────────────────────────── */

/**
 * The user's settings the engine needs, read each time they are needed (not
 * cached), so a run started by any tab — a recovered one included — and a
 * setting changed in another tab apply at once.
 */
export interface SettingsPort {
  /** How long a new pause point stays answerable, in ms; null for no expiry. */
  expiryMs(): Promise<number | null>;
  /**
   * The limits, prices and today's spending the check before each model call
   * reads (spending.ts). None: no limits.
   */
  spending?(): Promise<SpendingSettings>;
}

/* ── model ───────────────────────────────────────────────────────────────── */

/** The Chat Completions message dialect every compatible endpoint speaks. */
export type ModelMessage =
  | { role: 'system' | 'user'; content: string }
  | {
      role: 'assistant';
      content: string | null;
      tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
    }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface ToolSpec {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface ModelRequest {
  messages: ModelMessage[];
  tools: ToolSpec[];
  signal: AbortSignal;
  /** Called with each piece of text as it streams in. */
  onText: (delta: string) => void;
}

export interface ModelResult {
  content: string;
  toolCalls: ToolCall[];
  finishReason: string;
  /** What the call used, when the endpoint reported it. */
  usage?: CallUsage;
}

/** Adapters throw `ModelError` (src/engine/errors.ts) for every endpoint failure. */
export interface ModelPort {
  complete(request: ModelRequest): Promise<ModelResult>;
}

/* ── tools ───────────────────────────────────────────────────────────────── */

export interface PauseRequest {
  title: string;
  description: string;
  options: string[] | null;
  payload: unknown;
  kind: PausePoint['kind'];
}

export interface ToolContext {
  conversationId: string;
  toolCallId: string;
  turnIndex: number;
  signal: AbortSignal;
  /** Stores a pending pause point for this call and returns its id. */
  pause(request: PauseRequest): Promise<string>;
  /**
   * Asks the user while the call keeps running (an MCP server's elicitation):
   * stores a new pending pause point for this call every time, and resolves
   * with it once it is decided (`resolved`) or expired. If the run ends first
   * (Stop), the card expires as `lost` and this rejects with the abort reason;
   * if the tab dies, the next run to hold the conversation expires it as lost.
   */
  ask(request: PauseRequest): Promise<PausePoint>;
}

/** What a gate asks the user when it holds a call back. */
export interface GateQuestion {
  title: string;
  description: string;
}

// Methods (not function-typed properties) on purpose: their parameters are
// checked bivariantly, so a ToolDefinition<typeof input> fits a ToolDefinition[].
export interface ToolDefinition<S extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  input: S;
  /** JSON Schema sent to the model; derived from `input` unless given. */
  parameters?: Record<string, unknown>;
  /**
   * The per-call approval gate, decided over this call's arguments before
   * anything runs. Returns the question to ask, or null to let the call run.
   */
  gate?(args: z.infer<S>): GateQuestion | null;
  /**
   * Whether running this call again after a crash is harmless (reads, or work
   * that is itself idempotent). Calls that are not safe to retry get an
   * "outcome unknown" pause instead of a silent second run. Defaults to false.
   */
  safeToRetry?(args: z.infer<S>): boolean;
  /**
   * Whether this call cannot be undone (a DELETE, a deletion). Its card does
   * not offer "Always allow" unless the user turned that on in Settings: one
   * click should not grant every such call to come. Defaults to false.
   */
  irreversible?(args: z.infer<S>): boolean;
  /** Returns the text the model reads as this call's result. Throws on failure. */
  execute(args: z.infer<S>, context: ToolContext): Promise<string>;
}

/* ── runtime ─────────────────────────────────────────────────────────────── */

export interface ClockPort {
  now(): number;
  /** Resolves after `ms`, or rejects with the signal's reason when aborted. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

export interface IdPort {
  uuid(): string;
}

export interface NetworkPort {
  isOnline(): boolean;
  /** Resolves when the network comes back; rejects when aborted. */
  whenOnline(signal: AbortSignal): Promise<void>;
}

/** Mutual exclusion across tabs (Web Locks in the browser). */
export interface LockPort {
  /** Runs `task` while holding the named lock, waiting for it if held elsewhere. */
  withLock<T>(name: string, task: () => Promise<T>): Promise<T>;
  /** Runs `task` only if the lock is free now; returns `{ acquired: false }` otherwise. */
  ifAvailable<T>(name: string, task: () => Promise<T>): Promise<{ acquired: true; value: T } | { acquired: false }>;
}
