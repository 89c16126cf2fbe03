import { resolvesPastExpiry } from '../pause-expiry.ts';
import type { CallRecords, CallsOf, MessageDraft, SetAside, Settlement, SettleResult, StepRecords, StoragePort } from '../storage-port.ts';
import { checkedSetAside } from '../set-aside.ts';
import { stampBranch } from '../stamp-branch.ts';
import { ledgerId, type Conversation, type LedgerEntry, type Message, type PausePoint } from '../records/index.ts';
import { copyRecord } from './copy-record.ts';
import type { MemoryRules } from './memory-rules.ts';
import { StorageError } from '../storage-error.ts';

/**
 * StoragePort in memory, with the Dexie implementation's semantics (the shared
 * contract in storage-port-contract.ts holds both to them):
 * - every method runs to completion synchronously before its promise settles,
 *   so each one is trivially atomic, as a transaction would be;
 * - records are deep-copied on the way in and on the way out (copyRecord), so
 *   no caller can change stored state by mutating an object, as with IndexedDB;
 * - errors are the port's own `StorageError`, with the same codes.
 *
 * Built for engine tests and benchmarks: lookups are Map hits and each
 * conversation keeps its messages in an array already sorted by `seq`.
 */
export class MemoryStorage implements StoragePort {
  /** Where a settlement's rule goes (the rules port the engine reads); none refuses such a settlement. */
  readonly #rules: MemoryRules | undefined;
  readonly #conversations = new Map<string, Conversation>();
  readonly #messages = new Map<string, Message>();
  /** Per conversation, the stored messages sorted by (seq, id) — the order of Dexie's compound index. */
  readonly #timelines = new Map<string, Message[]>();
  readonly #pausePoints = new Map<string, PausePoint>();
  readonly #pausePointIds = new Map<string, Set<string>>();
  readonly #ledger = new Map<string, LedgerEntry>();

  constructor({ rules }: { rules?: MemoryRules } = {}) {
    this.#rules = rules;
  }

  async getConversation(id: string): Promise<Conversation | undefined> {
    return copy(this.#conversations.get(id));
  }

  async putConversation(conversation: Conversation): Promise<void> {
    this.#conversations.set(conversation.id, copyRecord(conversation));
  }

  async updateConversation(id: string, update: (current: Conversation) => Conversation): Promise<Conversation> {
    const current = this.#requireConversation(id);
    const next = update(copyRecord(current));
    if (next.id !== id) throw new StorageError('invalid', `An update of conversation ${id} returned conversation ${next.id}.`);
    this.#conversations.set(id, copyRecord(next));
    return next;
  }

  async pauseConversation(
    id: string,
    added: readonly PausePoint[],
    update: (current: Conversation, pending: number) => Conversation,
    drafts: readonly MessageDraft[] = [],
  ): Promise<Conversation> {
    // Everything that can fail or throw before the first write, so a failure writes nothing.
    const current = this.#requireConversation(id);
    const ids = new Set<string>();
    for (const pausePoint of added) {
      if (pausePoint.conversationId !== id) throw new StorageError('invalid', `A pause point added to conversation ${id} belongs to another one.`);
      if (this.#pausePoints.has(pausePoint.id) || ids.has(pausePoint.id)) throw new StorageError('conflict', `A pause point ${pausePoint.id} already exists.`);
      ids.add(pausePoint.id);
    }
    const pending = this.#countPending(id) + added.filter((p) => p.status === 'pending').length;
    if (drafts.length > 0) {
      // #append checks and writes the messages and the update together, or throws having written nothing.
      this.#append(id, drafts, (c) => update(c, pending));
      for (const pausePoint of added) this.#storePausePoint(copyRecord(pausePoint));
      return copyRecord(this.#requireConversation(id));
    }
    const next = update(copyRecord(current), pending);
    if (next.id !== id) throw new StorageError('invalid', `An update of conversation ${id} returned conversation ${next.id}.`);
    for (const pausePoint of added) this.#storePausePoint(copyRecord(pausePoint));
    this.#conversations.set(id, copyRecord(next));
    return next;
  }

  async deleteConversation(id: string): Promise<boolean> {
    const existed = this.#conversations.delete(id);
    for (const message of this.#timelines.get(id) ?? []) this.#messages.delete(message.id);
    this.#timelines.delete(id);
    for (const pausePointId of this.#pausePointIds.get(id) ?? []) this.#pausePoints.delete(pausePointId);
    this.#pausePointIds.delete(id);
    for (const entry of [...this.#ledger.values()]) if (entry.conversationId === id) this.#ledger.delete(entry.id);
    return existed;
  }

  /** Copies only the messages asked for: a step's tail, not the whole history. */
  async listMessages(conversationId: string, fromSeq = 0): Promise<Message[]> {
    return this.#messagesFrom(conversationId, fromSeq);
  }

  async appendMessages(
    conversationId: string,
    drafts: MessageDraft[],
    update?: (current: Conversation) => Conversation,
    setAside?: (pending: PausePoint) => SetAside,
  ): Promise<Message[]> {
    if (!setAside || drafts.length === 0) return copyRecord(this.#append(conversationId, drafts, update));
    this.#requireConversation(conversationId);
    // Everything that can fail or throw before the first write, so a failure writes nothing.
    const settled = this.#pausePointsWhere(conversationId, (p) => p.status === 'pending').map((pending) => checkedSetAside(pending, setAside(pending)));
    const messages = this.#append(conversationId, [...settled.flatMap((s) => s.messages), ...drafts], update);
    for (const { pausePoint } of settled) this.#storePausePoint(copyRecord(pausePoint));
    return copyRecord(messages);
  }

  /** No `await` between the append and the step's reads: one snapshot, as one transaction is in IndexedDB. */
  async appendAndLoadStep(
    conversationId: string,
    drafts: MessageDraft[],
    update: ((current: Conversation) => Conversation) | undefined,
    setAside: ((pending: PausePoint) => SetAside) | undefined,
    fromSeq: number,
    callsOf?: CallsOf,
  ): Promise<StepRecords> {
    // Both bodies run to their end before either promise settles: the read sees the append, or nothing when it failed.
    const [, step] = await Promise.all([this.appendMessages(conversationId, drafts, update, setAside), this.loadStep(conversationId, fromSeq, callsOf)]);
    return step;
  }

  /** No `await` between the three reads: that is what makes them one snapshot here. */
  async loadStep(conversationId: string, fromSeq: number, callsOf?: CallsOf): Promise<StepRecords> {
    const tail = this.#messagesFrom(conversationId, fromSeq);
    const conversation = copy(this.#conversations.get(conversationId));
    return {
      conversation,
      pending: this.#pausePointsWhere(conversationId, (p) => p.status === 'pending'),
      tail,
      ...(callsOf ? { calls: this.#calls(conversationId, callsOf(tail, conversation)) } : {}),
    };
  }

  async putMessage(message: Message, update?: (current: Conversation) => Conversation): Promise<void> {
    // Everything that can fail or throw before the first write, so a failure writes nothing.
    const conversation = update ? this.#checkedUpdate(this.#requireConversation(message.conversationId), update) : undefined;
    const stored = copyRecord(message);
    if (conversation) this.#conversations.set(conversation.id, conversation);
    const previous = this.#messages.get(message.id);
    this.#messages.set(stored.id, stored);
    // The usual case (streamed text, final status) keeps the message's place: replace it there.
    if (previous && previous.conversationId === stored.conversationId && previous.seq === stored.seq) {
      const timeline = this.#timelines.get(stored.conversationId);
      const at = timeline ? position(timeline, previous) : -1;
      if (timeline && timeline[at] === previous) {
        timeline[at] = stored;
        return;
      }
    }
    if (previous) this.#unlink(previous);
    this.#link(stored);
  }

  async getPausePoint(id: string): Promise<PausePoint | undefined> {
    return copy(this.#pausePoints.get(id));
  }

  async listPausePoints(conversationId: string): Promise<PausePoint[]> {
    return this.#pausePointsWhere(conversationId, () => true);
  }

  async listPendingPausePoints(conversationId: string): Promise<PausePoint[]> {
    return this.#pausePointsWhere(conversationId, (p) => p.status === 'pending');
  }

  async loadCalls(conversationId: string, toolCallIds: readonly string[]): Promise<CallRecords> {
    return this.#calls(conversationId, toolCallIds);
  }

  #calls(conversationId: string, toolCallIds: readonly string[]): CallRecords {
    const wanted = new Set(toolCallIds);
    const ledger: LedgerEntry[] = [];
    for (const id of wanted) {
      const entry = this.#ledger.get(ledgerId(conversationId, id));
      if (entry) ledger.push(copyRecord(entry));
    }
    return { pausePoints: this.#pausePointsWhere(conversationId, (p) => wanted.has(p.toolCallId)), ledger };
  }

  async createPausePoint(pausePoint: PausePoint): Promise<void> {
    if (this.#pausePoints.has(pausePoint.id)) {
      throw new StorageError('conflict', `A pause point ${pausePoint.id} already exists.`);
    }
    this.#storePausePoint(copyRecord(pausePoint));
  }

  async settlePausePoint(id: string, settle: (pending: PausePoint) => Settlement): Promise<SettleResult> {
    const current = this.#pausePoints.get(id);
    if (!current) return { ok: false, reason: 'not_found' };
    if (current.status !== 'pending') return { ok: false, reason: 'already_decided', pausePoint: copyRecord(current) };
    const settlement = settle(copyRecord(current));
    if (!settlement.commit) return { ok: false, reason: 'refused', message: settlement.reason, ...(settlement.code ? { code: settlement.code } : {}) };
    if (settlement.pausePoint.id !== id) {
      throw new StorageError('invalid', `Settling pause point ${id} returned pause point ${settlement.pausePoint.id}.`);
    }
    if (resolvesPastExpiry(current, settlement.pausePoint)) return { ok: false, reason: 'expired', pausePoint: copyRecord(current) };
    if (settlement.rule && !this.#rules) throw new StorageError('invalid', 'This storage has no rules to store a settlement\'s rule in.');
    const pausePoint = copyRecord(settlement.pausePoint);
    const { conversationId } = current;
    const { update } = settlement;
    const stillPending = this.#countPending(conversationId) - (pausePoint.status === 'pending' ? 0 : 1);
    const withPending = update && ((c: Conversation) => update(c, stillPending));
    // Appending first: it is the step that can fail, and a failure must leave the pause point pending.
    const messages = this.#append(conversationId, settlement.messages, withPending);
    if (withPending && messages.length === 0) {
      this.#conversations.set(conversationId, this.#checkedUpdate(this.#requireConversation(conversationId), withPending));
    }
    this.#pausePointIds.get(conversationId)?.delete(id);
    this.#storePausePoint(pausePoint);
    if (settlement.rule) this.#rules?.store(settlement.rule);
    return { ok: true, pausePoint: settlement.pausePoint, messages: copyRecord(messages) };
  }

  /** As appendAndLoadStep: both bodies run to their end before either promise settles, so the read sees the settlement. */
  async settleAndLoadStep(
    id: string,
    settle: (pending: PausePoint) => Settlement,
    conversationId: string,
    fromSeq: number,
    callsOf?: CallsOf,
  ): Promise<{ settled: SettleResult; step: StepRecords }> {
    const [settled, step] = await Promise.all([this.settlePausePoint(id, settle), this.loadStep(conversationId, fromSeq, callsOf)]);
    return { settled, step };
  }

  async getLedgerEntry(id: string): Promise<LedgerEntry | undefined> {
    return copy(this.#ledger.get(id));
  }

  async beginExecution(entry: LedgerEntry, reopen: readonly LedgerEntry['status'][] = []): Promise<boolean> {
    const existing = this.#ledger.get(entry.id);
    if (existing && !reopen.includes(existing.status)) return false;
    this.#ledger.set(entry.id, copyRecord(entry));
    return true;
  }

  async putLedgerEntry(entry: LedgerEntry): Promise<void> {
    this.#ledger.set(entry.id, copyRecord(entry));
  }

  async finishExecution(entry: LedgerEntry, result: MessageDraft): Promise<Message> {
    if (result.conversationId !== entry.conversationId) {
      throw new StorageError('invalid', `The result of ledger entry ${entry.id} belongs to conversation ${result.conversationId}.`);
    }
    const [appended] = this.#append(entry.conversationId, [result]);
    this.#ledger.set(entry.id, copyRecord(entry));
    return copyRecord(appended!);
  }

  #countPending(conversationId: string): number {
    let pending = 0;
    for (const id of this.#pausePointIds.get(conversationId) ?? []) if (this.#pausePoints.get(id)?.status === 'pending') pending++;
    return pending;
  }

  #requireConversation(id: string): Conversation {
    const conversation = this.#conversations.get(id);
    if (!conversation) throw new StorageError('not_found', `No conversation ${id}.`);
    return conversation;
  }

  /** An update written along with messages: it may not move the conversation or its numbering. Returns a stored copy. */
  #checkedUpdate(current: Conversation, update: (current: Conversation) => Conversation): Conversation {
    const next = copyRecord(update(copyRecord(current)));
    if (next.id !== current.id || next.nextSeq !== current.nextSeq) {
      throw new StorageError('invalid', `An update of conversation ${current.id} made with its messages changed its id or nextSeq.`);
    }
    return next;
  }

  #messagesFrom(conversationId: string, fromSeq: number): Message[] {
    const timeline = this.#timelines.get(conversationId) ?? [];
    return copyRecord(fromSeq > 0 ? timeline.slice(firstAtOrAfter(timeline, fromSeq)) : timeline);
  }

  /** Copies only the matches, oldest first. */
  #pausePointsWhere(conversationId: string, matches: (pausePoint: PausePoint) => boolean): PausePoint[] {
    const found: PausePoint[] = [];
    for (const id of this.#pausePointIds.get(conversationId) ?? []) {
      const pausePoint = this.#pausePoints.get(id);
      if (pausePoint && matches(pausePoint)) found.push(pausePoint);
    }
    return copyRecord(found.sort(byCreation));
  }

  /**
   * Numbers and stores drafts, and applies `update` to the conversation;
   * returns the stored objects (callers clone them). Everything that can fail
   * or throw runs before the first write, so a failure writes nothing.
   * The numbering rule is src/storage/number-drafts.ts's, repeated here.
   */
  #append(conversationId: string, drafts: readonly MessageDraft[], update?: (current: Conversation) => Conversation): Message[] {
    const conversation = this.#requireConversation(conversationId);
    if (drafts.length === 0) return [];
    const ids = new Set<string>();
    for (const draft of drafts) {
      if (draft.conversationId !== conversationId) {
        throw new StorageError('invalid', `Message ${draft.id} belongs to conversation ${draft.conversationId}, not ${conversationId}.`);
      }
      if (this.#messages.has(draft.id) || ids.has(draft.id)) {
        throw new StorageError('conflict', `A message ${draft.id} already exists.`);
      }
      ids.add(draft.id);
    }
    let seq = conversation.nextSeq;
    let updatedAt = conversation.updatedAt;
    const messages = drafts.map((draft): Message => {
      updatedAt = Math.max(updatedAt, draft.createdAt);
      return stampBranch({ ...copyRecord(draft), seq: seq++ }, conversation);
    });
    const numbered: Conversation = { ...conversation, nextSeq: seq, updatedAt };
    this.#conversations.set(conversationId, update ? this.#checkedUpdate(numbered, update) : numbered);
    for (const message of messages) {
      this.#messages.set(message.id, message);
      this.#link(message);
    }
    return messages;
  }

  #storePausePoint(pausePoint: PausePoint): void {
    this.#pausePoints.set(pausePoint.id, pausePoint);
    let ids = this.#pausePointIds.get(pausePoint.conversationId);
    if (!ids) this.#pausePointIds.set(pausePoint.conversationId, (ids = new Set()));
    ids.add(pausePoint.id);
  }

  /** Inserts into the conversation's timeline; appending at the end (the usual case) costs O(1). */
  #link(message: Message): void {
    let timeline = this.#timelines.get(message.conversationId);
    if (!timeline) this.#timelines.set(message.conversationId, (timeline = []));
    const last = timeline.at(-1);
    if (!last || compareMessages(last, message) < 0) timeline.push(message);
    else timeline.splice(position(timeline, message), 0, message);
  }

  #unlink(message: Message): void {
    const timeline = this.#timelines.get(message.conversationId);
    if (!timeline) return;
    const at = position(timeline, message);
    if (timeline[at]?.id === message.id) timeline.splice(at, 1);
  }
}

function copy<T>(value: T | undefined): T | undefined {
  return value === undefined ? undefined : copyRecord(value);
}

function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareMessages(a: Message, b: Message): number {
  return a.seq - b.seq || compareKeys(a.id, b.id);
}

/** The first index whose message has `seq >= fromSeq` (binary search). */
function firstAtOrAfter(timeline: readonly Message[], fromSeq: number): number {
  let low = 0;
  let high = timeline.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const at = timeline[middle];
    if (at && at.seq < fromSeq) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The first index whose message does not sort before `message` (binary search). */
function position(timeline: readonly Message[], message: Message): number {
  let low = 0;
  let high = timeline.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const at = timeline[middle];
    if (at && compareMessages(at, message) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** src/storage/pause-points-repo.ts's `byCreation`, repeated: oldest first, id breaks ties. */
function byCreation(a: PausePoint, b: PausePoint): number {
  return a.createdAt - b.createdAt || compareKeys(a.id, b.id);
}
