import type { ApprovalRule, Conversation, LedgerEntry, Message, PausePoint } from './records/index.ts';

/** A message before storage gives it its place in the conversation. */
export type MessageDraft = Message extends infer M ? (M extends Message ? Omit<M, 'seq'> : never) : never;

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
      /**
       * An approval rule stored in the same transaction, and only if this
       * settlement commits (a card's `Always allow`: the rule and the decision
       * it came with stand or fall together), where the rules port reads it;
       * its creation is an audit event, made by whoever decided.
       */
      rule?: ApprovalRule;
    }
  /** `view_changed`: the decision's view hash is not the card's now (decision-settlement.ts). */
  | { commit: false; reason: string; code?: 'view_changed' };

/** How `appendMessages` settles a pending pause point it sets aside. */
export interface SetAside {
  pausePoint: PausePoint;
  messages: MessageDraft[];
}

export type SettleResult =
  | { ok: true; pausePoint: PausePoint; messages: Message[] }
  | { ok: false; reason: 'not_found' }
  | { ok: false; reason: 'already_decided'; pausePoint: PausePoint }
  /** The settlement would have resolved the pause point at or after its `expiresAt` (see `resolvesPastExpiry`). */
  | { ok: false; reason: 'expired'; pausePoint: PausePoint }
  | { ok: false; reason: 'refused'; message: string; code?: 'view_changed' };

/** What one step of the loop reads, in one transaction (see `StoragePort.loadStep`). */
export interface StepRecords {
  /** Undefined when the conversation does not exist (or was deleted). */
  conversation: Conversation | undefined;
  /** The conversation's pending pause points, oldest first. */
  pending: PausePoint[];
  /** The conversation's messages with `seq >= fromSeq`, ordered by `seq`. */
  tail: Message[];
  /**
   * What the host's storage reads along with the step, in the same
   * transaction (the worker: the settings the model is built from); absent
   * when it reads nothing more. Opaque to the engine, which hands it to
   * `EngineOptions.model` for that step's model call: one transaction fewer
   * between a press and the model request.
   */
  alongside?: unknown;
  /**
   * Present when the step was asked for them (`loadStep`'s `callsOf`): the
   * records of the calls it named, as `loadCalls` reads them, in the step's
   * own transaction.
   */
  calls?: CallRecords;
}

/**
 * Which tool calls' records a step reads along with it, chosen from the
 * messages it has just read (`StepRecords.tail`) and its conversation as the
 * step reads it (whose current version says which of them count);
 * synchronous, inside the step's transaction. The loop names the open calls of the last answer, so
 * the step after a decision needs no second read before it runs them.
 */
export type CallsOf = (tail: readonly Message[], conversation: Conversation | undefined) => readonly string[];

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
   *
   * `drafts`, when given, are appended in the same transaction, before the
   * update, as `appendMessages` appends them: the update then gets the
   * record with `nextSeq` and `updatedAt` already moved past them, and may not
   * change `nextSeq`. How a model answer whose calls all wait for a person is
   * stored with its questions: one transaction, and never the answer without
   * the cards it asks.
   */
  pauseConversation(
    id: string,
    added: readonly PausePoint[],
    update: (current: Conversation, pending: number) => Conversation,
    drafts?: readonly MessageDraft[],
  ): Promise<Conversation>;
  /**
   * Atomically deletes a conversation with its messages, pause points and
   * ledger entries, all or nothing. Returns whether the conversation existed.
   * Its audit trail goes with it: the UI says so before asking.
   */
  deleteConversation(id: string): Promise<boolean>;

  /** A conversation's messages with `seq >= fromSeq` (all by default), ordered by `seq`. */
  listMessages(conversationId: string, fromSeq?: number): Promise<Message[]>;
  /**
   * Atomically appends messages, numbering them from the conversation's
   * `nextSeq`. `update`, when given, transforms the conversation in the same
   * transaction: it gets the record with `nextSeq` and `updatedAt` already moved
   * past the drafts, and may change neither `id` nor `nextSeq`. If anything
   * fails or throws, nothing is written. Appending no drafts writes nothing,
   * the update included.
   *
   * `setAside`, when given, first settles every pending pause point of the
   * conversation, in the same transaction: each is replaced by the pause point
   * it returns (which must keep its id and no longer be pending), and its
   * messages are appended before `drafts`. How a new message sets the cards
   * it makes moot aside without a read of them first.
   */
  appendMessages(
    conversationId: string,
    drafts: MessageDraft[],
    update?: (current: Conversation) => Conversation,
    setAside?: (pending: PausePoint) => SetAside,
  ): Promise<Message[]>;
  /**
   * What a step of the loop needs, read in one transaction so the three agree:
   * the conversation, its pending pause points, and its messages from `fromSeq` on;
   * with `callsOf`, also the records of the calls it names (`StepRecords.calls`).
   * If `callsOf` throws, the step rejects with its error.
   */
  loadStep(conversationId: string, fromSeq: number, callsOf?: CallsOf): Promise<StepRecords>;
  /**
   * `appendMessages(conversationId, drafts, update, setAside)`, and in the
   * same transaction the step that follows it: what `loadStep(conversationId,
   * fromSeq, callsOf)` would read right after the append. How a Send starts
   * its run without a read of its own between the press and the model request;
   * the run holds the conversation's lock, so nothing but this write can have
   * changed what the step reads. Fails as `appendMessages` does, writing nothing;
   * a `callsOf` that throws rejects it with its error after the append stands.
   */
  appendAndLoadStep(
    conversationId: string,
    drafts: MessageDraft[],
    update: ((current: Conversation) => Conversation) | undefined,
    setAside: ((pending: PausePoint) => SetAside) | undefined,
    fromSeq: number,
    callsOf?: CallsOf,
  ): Promise<StepRecords>;
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
  /**
   * `settlePausePoint(id, settle)`, and in the same transaction the step that
   * follows it: what `loadStep(conversationId, fromSeq, callsOf)` would read
   * right after the settlement (or after nothing was written, when it was
   * refused). How a decision made where its conversation's lock is held
   * continues without a read of its own: the run holds the lock, so nothing
   * but this write can have changed what the step reads, and it starts only
   * once the decision has committed. Fails as `settlePausePoint` does, writing
   * nothing; a `callsOf` that throws rejects it with its error after the
   * settlement stands.
   */
  settleAndLoadStep(
    id: string,
    settle: (pending: PausePoint) => Settlement,
    conversationId: string,
    fromSeq: number,
    callsOf?: CallsOf,
  ): Promise<{ settled: SettleResult; step: StepRecords }>;

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
