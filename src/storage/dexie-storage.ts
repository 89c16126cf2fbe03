import Dexie from 'dexie';
import type { CallRecords, CallsOf, MessageDraft, SetAside, Settlement, SettleResult, StepRecords, StoragePort } from '../engine/storage-port.ts';
import { checkedSetAside } from '../engine/set-aside.ts';
import type { Conversation, LedgerEntry, Message, PausePoint } from '../engine/records/index.ts';
import { beginExecution } from './begin-execution.ts';
import type { PausepointDb } from './db.ts';
import { conversationMessages } from './messages-repo.ts';
import { numberDrafts } from './number-drafts.ts';
import { pausePointsOf, pendingOf, pendingPausePointsOf } from './pause-points-repo.ts';
import { readOnly, type Collect, type ReadAlongside } from './read-only.ts';
import { checkedUpdate, SETTLE_STORES, settleInTransaction } from './settle-in-transaction.ts';
import { callsAfterWrites, callsRequest, pendingRequest } from './step-requests.ts';
import { StorageError, toStorageError } from './storage-error.ts';

/**
 * The engine's storage over IndexedDB. Every method marked "atomically" in the
 * port is one `rw` transaction: IndexedDB runs transactions with overlapping
 * scopes one after another, across tabs and workers, which is what makes the
 * compare-and-set in `settlePausePoint` and `beginExecution` hold.
 *
 * Records read here are not validated with zod: this is the hot path and only
 * this code writes them. Validation belongs at import boundaries (backups, files).
 *
 * Inside a transaction callback nothing may await anything but Dexie calls: a
 * foreign promise would let IndexedDB commit the transaction early.
 */
export class DexieStorage implements StoragePort {
  /**
   * `alongside`: a read to make in each step's transaction, handed to the
   * engine as `StepRecords.alongside` (the worker reads the settings its model
   * call is built from: one transaction fewer on the way to each request).
   */
  constructor(
    private readonly db: PausepointDb,
    private readonly alongside?: ReadAlongside<unknown>,
  ) {}

  getConversation(id: string): Promise<Conversation | undefined> {
    return this.#run(() => this.db.conversations.get(id));
  }

  async putConversation(conversation: Conversation): Promise<void> {
    await this.#run(() => this.db.conversations.put(conversation));
  }

  updateConversation(id: string, update: (current: Conversation) => Conversation): Promise<Conversation> {
    return this.#run(() =>
      this.db.transaction('rw', this.db.conversations, async () => {
        const current = await this.db.conversations.get(id);
        if (!current) throw new StorageError('not_found', `No conversation ${id}.`);
        const next = update(current);
        if (next.id !== id) throw new StorageError('invalid', `An update of conversation ${id} returned conversation ${next.id}.`);
        await this.db.conversations.put(next);
        return next;
      }),
    );
  }

  pauseConversation(
    id: string,
    added: readonly PausePoint[],
    update: (current: Conversation, pending: number) => Conversation,
    drafts: readonly MessageDraft[] = [],
  ): Promise<Conversation> {
    const { conversations, pausePoints, messages } = this.db;
    return this.#run(() =>
      this.db.transaction('rw', [conversations, pausePoints, ...(drafts.length > 0 ? [messages] : [])], async () => {
        if (added.some((pausePoint) => pausePoint.conversationId !== id)) {
          throw new StorageError('invalid', `A pause point added to conversation ${id} belongs to another one.`);
        }
        // `add`, as in createPausePoint: an existing pause point is never overwritten. Requests of a
        // transaction run in the order they were made, so the pending count, made after the adds, counts them:
        // one round trip to the database for all three.
        const [current, , pending] = await Promise.all([
          conversations.get(id),
          added.length > 0 ? pausePoints.bulkAdd([...added]) : undefined,
          this.#countPending(id),
        ]);
        if (!current) throw new StorageError('not_found', `No conversation ${id}.`);
        if (drafts.length === 0) {
          const next = update(current, pending);
          if (next.id !== id) throw new StorageError('invalid', `An update of conversation ${id} returned conversation ${next.id}.`);
          await conversations.put(next);
          return next;
        }
        const numbered = numberDrafts(current, drafts);
        const next = checkedUpdate(numbered.conversation, (c) => update(c, pending));
        await Promise.all([conversations.put(next), messages.bulkAdd(numbered.messages)]);
        return next;
      }),
    );
  }

  deleteConversation(id: string): Promise<boolean> {
    const { conversations, messages, pausePoints, ledger, attachments } = this.db;
    return this.#run(() =>
      this.db.transaction('rw', [conversations, messages, pausePoints, ledger, attachments], async () => {
        const existed = (await conversations.where('id').equals(id).delete()) > 0;
        // The files its messages name go with them, in the same transaction.
        const named: string[] = [];
        await conversationMessages(this.db, id).each((m) => {
          if (m.role === 'user' && m.attachments) named.push(...m.attachments.map((a) => a.id));
        });
        await attachments.bulkDelete(named);
        await conversationMessages(this.db, id).delete();
        await pausePoints.where('conversationId').equals(id).delete();
        await ledger.where('conversationId').equals(id).delete();
        return existed;
      }),
    );
  }

  listMessages(conversationId: string, fromSeq = 0): Promise<Message[]> {
    return this.#run(() => this.#messagesFrom(conversationId, fromSeq));
  }

  appendMessages(
    conversationId: string,
    drafts: MessageDraft[],
    update?: (current: Conversation) => Conversation,
    setAside?: (pending: PausePoint) => SetAside,
  ): Promise<Message[]> {
    const { conversations, messages, pausePoints } = this.db;
    if (!setAside || drafts.length === 0) {
      return this.#run(() => this.db.transaction('rw', [conversations, messages], () => this.#append(conversationId, drafts, update)));
    }
    return this.#run(() =>
      this.db.transaction('rw', [conversations, messages, pausePoints], async () => {
        // Both reads in one round trip.
        const [pending, current] = await Promise.all([pendingPausePointsOf(this.db, conversationId), conversations.get(conversationId)]);
        // Synchronous, as in settlePausePoint: each is settled on the state this transaction read.
        const settled = pending.map((p) => checkedSetAside(p, setAside(p)));
        const [appended] = await Promise.all([
          this.#appendTo(conversationId, current, [...settled.flatMap((s) => s.messages), ...drafts], update),
          settled.length > 0 ? pausePoints.bulkPut(settled.map((s) => s.pausePoint)) : undefined,
        ]);
        return appended;
      }),
    );
  }

  /**
   * One `rw` transaction: the append as in appendMessages, then the step's
   * reads. The conversation and its pending pause points are known from the
   * append's own reads and writes; the tail is read after the messages are
   * added (a transaction's requests run in order), and the calls' and the
   * settings' reads are made on the same IndexedDB transaction, collected
   * once it has committed.
   */
  appendAndLoadStep(
    conversationId: string,
    drafts: MessageDraft[],
    update: ((current: Conversation) => Conversation) | undefined,
    setAside: ((pending: PausePoint) => SetAside) | undefined,
    fromSeq: number,
    callsOf?: CallsOf,
  ): Promise<StepRecords> {
    const { alongside } = this;
    const stores = [...new Set(['conversations', 'messages', 'pausePoints', ...(callsOf ? ['ledger'] : []), ...(alongside?.stores ?? [])])];
    return this.#run(async () => {
      let extra: Collect<unknown> | undefined;
      let calls: Collect<CallRecords> | undefined;
      const step = await this.db.transaction('rw', stores, async (transaction) => {
        extra = alongside?.issue(transaction.idbtrans);
        const { conversations, pausePoints } = this.db;
        const [pendingBefore, current] = await Promise.all([pendingPausePointsOf(this.db, conversationId), conversations.get(conversationId)]);
        if (!current) throw new StorageError('not_found', `No conversation ${conversationId}.`);
        // As in appendMessages: no drafts, nothing written, the cards set aside included.
        const settled = setAside && drafts.length > 0 ? pendingBefore.map((p) => checkedSetAside(p, setAside(p))) : [];
        let conversation = current;
        const writes: Promise<unknown>[] = [];
        const all = [...settled.flatMap((s) => s.messages), ...drafts];
        if (all.length > 0) {
          const numbered = numberDrafts(current, all);
          conversation = update ? checkedUpdate(numbered.conversation, update) : numbered.conversation;
          writes.push(conversations.put(conversation), this.db.messages.bulkAdd(numbered.messages));
          if (settled.length > 0) writes.push(pausePoints.bulkPut(settled.map((s) => s.pausePoint)));
        }
        const [tail] = await Promise.all([this.#messagesFrom(conversationId, fromSeq), ...writes]);
        // Thrown once the append has committed, as from memory storage: an error of the caller's choice of calls undoes no write.
        if (callsOf) calls = callsAfterWrites(transaction.idbtrans, conversationId, callsOf, tail, conversation);
        return { conversation, pending: settled.length > 0 ? [] : pendingBefore, tail };
      });
      return { ...step, ...(extra ? { alongside: extra() } : {}), ...(calls ? { calls: calls() } : {}) };
    });
  }

  /**
   * One read-only transaction: IndexedDB orders it with every write transaction it overlaps, so the reads agree.
   * The calls' reads are made from the tail's success event, while the transaction is still active.
   */
  loadStep(conversationId: string, fromSeq: number, callsOf?: CallsOf): Promise<StepRecords> {
    const { alongside } = this;
    const stores = ['conversations', 'pausePoints', 'messages', ...(callsOf ? ['ledger'] : []), ...(alongside?.stores ?? [])];
    return this.#run(() =>
      readOnly(this.db, [...new Set(stores)], (transaction) => {
        const conversation = transaction.objectStore('conversations').get(conversationId) as IDBRequest<Conversation | undefined>;
        const pending = pendingRequest(transaction);
        const tail = transaction
          .objectStore('messages')
          .index('[conversationId+seq]')
          .getAll(IDBKeyRange.bound([conversationId, fromSeq > 0 ? fromSeq : Dexie.minKey], [conversationId, Dexie.maxKey])) as IDBRequest<Message[]>;
        const extra = alongside?.issue(transaction);
        let calls: Collect<CallRecords> | undefined;
        if (callsOf) {
          // An error of callsOf is kept, not thrown: an exception in an IndexedDB event handler would abort the transaction and lose it.
          // The conversation's request was made first, so it has its result by the tail's success.
          tail.addEventListener('success', () => (calls = callsAfterWrites(transaction, conversationId, callsOf, tail.result, conversation.result)));
        }
        return () => ({
          conversation: conversation.result,
          pending: pendingOf(pending.result, conversationId),
          tail: tail.result,
          ...(extra ? { alongside: extra() } : {}),
          ...(calls ? { calls: calls() } : {}),
        });
      }),
    );
  }

  async putMessage(message: Message, update?: (current: Conversation) => Conversation): Promise<void> {
    if (!update) {
      await this.#run(() => this.db.messages.put(message));
      return;
    }
    const { conversations, messages } = this.db;
    await this.#run(() =>
      this.db.transaction('rw', [conversations, messages], async () => {
        const current = await conversations.get(message.conversationId);
        if (!current) throw new StorageError('not_found', `No conversation ${message.conversationId}.`);
        await conversations.put(checkedUpdate(current, update));
        await messages.put(message);
      }),
    );
  }

  getPausePoint(id: string): Promise<PausePoint | undefined> {
    return this.#run(() => this.db.pausePoints.get(id));
  }

  listPausePoints(conversationId: string): Promise<PausePoint[]> {
    return this.#run(() => pausePointsOf(this.db, conversationId));
  }

  listPendingPausePoints(conversationId: string): Promise<PausePoint[]> {
    return this.#run(() =>
      readOnly(this.db, ['pausePoints'], (transaction) => {
        const pending = pendingRequest(transaction);
        return () => pendingOf(pending.result, conversationId);
      }),
    );
  }

  loadCalls(conversationId: string, toolCallIds: readonly string[]): Promise<CallRecords> {
    if (toolCallIds.length === 0) return Promise.resolve({ pausePoints: [], ledger: [] });
    return this.#run(() => readOnly(this.db, ['pausePoints', 'ledger'], (transaction) => callsRequest(transaction, conversationId, toolCallIds)));
  }

  /** `add`, not `put`: a decided pause point is an audit record and is never overwritten by a new one. */
  async createPausePoint(pausePoint: PausePoint): Promise<void> {
    await this.#run(() => this.db.pausePoints.add(pausePoint));
  }

  settlePausePoint(id: string, settle: (pending: PausePoint) => Settlement): Promise<SettleResult> {
    return this.#run(() =>
      this.db.transaction('rw', [...SETTLE_STORES], async () => {
        const { result, written } = await settleInTransaction(this.db, id, settle);
        await written;
        return result;
      }),
    );
  }

  /**
   * One `rw` transaction: the settlement as in settlePausePoint, then the
   * step's reads. When the settlement committed in this conversation, its
   * conversation and pending pause points are known from the settlement's own
   * reads and writes, and only the tail (read after the decision's message is
   * added) and the calls' records are requested; otherwise the step is read
   * whole, as loadStep reads it.
   */
  settleAndLoadStep(
    id: string,
    settle: (pending: PausePoint) => Settlement,
    conversationId: string,
    fromSeq: number,
    callsOf?: CallsOf,
  ): Promise<{ settled: SettleResult; step: StepRecords }> {
    const { alongside } = this;
    const stores = [...new Set([...SETTLE_STORES, ...(callsOf ? ['ledger'] : []), ...(alongside?.stores ?? [])])];
    return this.#run(async () => {
      let extra: Collect<unknown> | undefined;
      let calls: Collect<CallRecords> | undefined;
      const both = await this.db.transaction('rw', stores, async (transaction) => {
        extra = alongside?.issue(transaction.idbtrans);
        const { result, after, written } = await settleInTransaction(this.db, id, settle, conversationId);
        const known = after && after.conversation.id === conversationId ? after : undefined;
        // Queued behind the settlement's writes, and awaited with them: one round trip.
        const [tail, conversation, pending] = await Promise.all([
          this.#messagesFrom(conversationId, fromSeq),
          known ? known.conversation : this.db.conversations.get(conversationId),
          known ? known.pending : pendingPausePointsOf(this.db, conversationId),
          written,
        ]);
        // As in appendAndLoadStep: an error of the caller's choice of calls is thrown once the decision has committed.
        if (callsOf) calls = callsAfterWrites(transaction.idbtrans, conversationId, callsOf, tail, conversation);
        return { settled: result, step: { conversation, pending, tail } };
      });
      return { settled: both.settled, step: { ...both.step, ...(extra ? { alongside: extra() } : {}), ...(calls ? { calls: calls() } : {}) } };
    });
  }

  getLedgerEntry(id: string): Promise<LedgerEntry | undefined> {
    return this.#run(() => this.db.ledger.get(id));
  }

  /** Durable on disk before it resolves, unlike the other writes (see begin-execution.ts). */
  beginExecution(entry: LedgerEntry, reopen: readonly LedgerEntry['status'][] = []): Promise<boolean> {
    return this.#run(() => beginExecution(this.db, entry, reopen));
  }

  async putLedgerEntry(entry: LedgerEntry): Promise<void> {
    await this.#run(() => this.db.ledger.put(entry));
  }

  finishExecution(entry: LedgerEntry, result: MessageDraft): Promise<Message> {
    const { conversations, messages, ledger } = this.db;
    return this.#run(() =>
      this.db.transaction('rw', [conversations, messages, ledger], async () => {
        if (result.conversationId !== entry.conversationId) {
          throw new StorageError('invalid', `The result of ledger entry ${entry.id} belongs to conversation ${result.conversationId}.`);
        }
        const [[appended]] = await Promise.all([this.#append(entry.conversationId, [result]), ledger.put(entry)]);
        return appended!;
      }),
    );
  }

  /** Reads only pending pause points (through the `status` index): few, however long the history. */
  async #countPending(conversationId: string): Promise<number> {
    return (await pendingPausePointsOf(this.db, conversationId)).length;
  }

  /** Through the `[conversationId+seq]` index, so only this conversation's keys from `fromSeq` on are visited. */
  #messagesFrom(conversationId: string, fromSeq: number): Promise<Message[]> {
    return this.db.messages
      .where('[conversationId+seq]')
      .between([conversationId, fromSeq > 0 ? fromSeq : Dexie.minKey], [conversationId, Dexie.maxKey])
      .toArray();
  }

  /** The body of `appendMessages`; the caller holds a transaction over conversations and messages. */
  async #append(conversationId: string, drafts: readonly MessageDraft[], update?: (current: Conversation) => Conversation): Promise<Message[]> {
    return this.#appendTo(conversationId, await this.db.conversations.get(conversationId), drafts, update);
  }

  /** `#append` with the conversation already read in the caller's transaction (undefined: it does not exist). */
  async #appendTo(
    conversationId: string,
    current: Conversation | undefined,
    drafts: readonly MessageDraft[],
    update?: (current: Conversation) => Conversation,
  ): Promise<Message[]> {
    if (!current) throw new StorageError('not_found', `No conversation ${conversationId}.`);
    if (drafts.length === 0) return [];
    const numbered = numberDrafts(current, drafts);
    const conversation = update ? checkedUpdate(numbered.conversation, update) : numbered.conversation;
    // Queued together: one wait instead of two (a failure of either still aborts the whole transaction).
    await Promise.all([this.db.conversations.put(conversation), this.db.messages.bulkAdd(numbered.messages)]);
    return numbered.messages;
  }

  async #run<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      throw toStorageError(error);
    }
  }
}
