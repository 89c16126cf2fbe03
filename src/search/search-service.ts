import Dexie, { RangeSet, type ObservabilitySet } from 'dexie';
import { yieldToEventLoop } from '../common/yield-to-event-loop.ts';
import type { LockPort } from '../engine/lock-port.ts';
import type { Conversation } from '../engine/records/index.ts';
import type { PausepointDb } from '../storage/db.ts';
import { cardDocs, conversationDocs, messageDoc } from './conversation-docs.ts';
import { IndexView } from './index-view.ts';
import { IndexWriter, type ConversationWrite } from './index-writer.ts';
import { SEARCH_FORMAT, type SearchStateRow } from '../storage/records/search-records.ts';
import type { SearchResults } from './search-result.ts';
import { searchIndex } from './search-query.ts';

/**
 * The records of a build's batch, read with one request: a build takes the
 * conversations in key order, so a batch's are one key range (a request per
 * conversation would be thousands of round trips to the browser's IndexedDB
 * process), then grouped back by conversation, in `ids`' order.
 */
async function inRange<T extends { conversationId: string }>(ids: readonly string[], read: (first: string, last: string) => Promise<T[]>): Promise<T[][]> {
  const of = new Map<string, T[]>(ids.map((id) => [id, []]));
  for (const row of await read(ids[0]!, ids[ids.length - 1]!)) of.get(row.conversationId)?.push(row);
  return ids.map((id) => of.get(id)!);
}

/** The Web Lock every writer of the stored index holds: one builder or updater at a time, across tabs. */
export const SEARCH_INDEX_LOCK = 'pausepoint:search-index';

/** Messages read and written per transaction while building or catching up: each batch is one task of tens of ms, so the worker's intents wait no longer. */
const BATCH_MESSAGES = 2_000;

type Watched = 'conversations' | 'messages' | 'pausePoints' | 'searchCovered';
const WATCHED: readonly Watched[] = ['conversations', 'messages', 'pausePoints', 'searchCovered'];

const usable = (state: SearchStateRow | undefined): state is SearchStateRow => state !== undefined && state.format === SEARCH_FORMAT && state.complete;

/**
 * Conversation search as a worker runs it, over the index stored in
 * IndexedDB (src/storage/records/search-records.ts), which every tab shares: the first tab that
 * searches builds it, under a Web Lock so no two tabs ever build at once,
 * and every later tab only reads it (a conversation's title and blocks are
 * all it holds in memory, index-view.ts). It is rebuilt only when its
 * format changes.
 *
 * It is kept from Dexie's `storagemutated` events, which name the keys every
 * write changed — this worker's engine, other tabs and workers, sync: a
 * finished message or a card is indexed (a streamed answer once it ends,
 * not on every chunk), a deleted conversation leaves with its postings. A
 * write no key list describes (a bulk write, a table cleared), and the
 * first use in a tab, compare each conversation's `updatedAt` with the one
 * its coverage was recorded at, and index again the conversations that
 * differ — so writes made while no tab was indexing are caught up too.
 */
export class SearchService {
  readonly #view = new IndexView();
  readonly #writer: IndexWriter;
  #loaded: Promise<string> | null = null;
  readonly #changed: Record<Watched, Set<string>> = { conversations: new Set(), messages: new Set(), pausePoints: new Set(), searchCovered: new Set() };
  /** A write no list of keys describes: every conversation's coverage is compared again, and the blocks map read again. */
  #reconcile = false;
  #reloadCovered = false;
  #applying: Promise<void> = Promise.resolve();
  readonly #onMutated = (parts: ObservabilitySet) => this.#noteChanges(parts);

  constructor(
    private readonly db: PausepointDb,
    private readonly locks: LockPort,
  ) {
    this.#writer = new IndexWriter(db);
    // Listening from the start, so nothing written while the index is loaded or built is missed.
    Dexie.on('storagemutated', this.#onMutated);
  }

  /** Loads (or, the first time anywhere, builds) the index and applies what changed: the search field's focus asks for it. */
  async warm(): Promise<void> {
    await this.#ready();
  }

  /** The conversations matching `query`, newest first, with a snippet of each one's match. */
  async search(query: string, limit: number): Promise<SearchResults> {
    await this.#ready();
    return searchIndex(this.db, this.#view, query, limit);
  }

  /** Stops following the tables (tests, and a bench that opens several). */
  close(): void {
    this.#closed = true;
    Dexie.on.storagemutated.unsubscribe(this.#onMutated);
  }

  async #ready(): Promise<void> {
    for (;;) {
      this.#loaded ??= this.#load().catch((error: unknown) => {
        this.#loaded = null;
        throw error;
      });
      const generation = await this.#loaded;
      const state = await this.db.searchState.get('index');
      if (usable(state) && state.generation === generation) break;
      // Another tab started the index over (a new format, the database recreated): load that one.
      this.#loaded = null;
    }
    if (this.#reconcile || this.#reloadCovered || WATCHED.some((table) => this.#changed[table].size > 0)) {
      this.#applying = this.#applying.then(() => this.#apply());
    }
    await this.#applying;
  }

  /** The stored index, built first if no tab has (under the lock: the others wait, then read it), and what changed since it was last caught up. */
  async #load(): Promise<string> {
    let state = await this.db.searchState.get('index');
    if (!usable(state)) {
      state = await this.locks.withLock(SEARCH_INDEX_LOCK, async () => {
        const now = await this.db.searchState.get('index');
        return usable(now) ? now : this.#build();
      });
    }
    this.#view.clear();
    await this.#catchUp();
    return state.generation;
  }

  /** A fresh index of every stored conversation, message and card, a batch per transaction, yielding between batches. */
  async #build(): Promise<SearchStateRow> {
    const state = await this.#writer.start();
    this.#view.clear();
    // In key order: each batch's records are one key range (see inRange).
    await this.#index(await this.db.conversations.toArray(), { fresh: true });
    await this.#writer.finish();
    return { ...state, complete: true };
  }

  /**
   * Indexes conversations whole, in batches of about BATCH_MESSAGES
   * messages, each read in one transaction (the conversation too, so the
   * `updatedAt` recorded is the one its messages were read at). Batches
   * overlap: the next is read, and the last written, while this one's words
   * are folded, so the browser's IndexedDB works meanwhile instead of the
   * worker waiting for it (half a build's time before).
   */
  async #index(conversations: readonly Conversation[], { fresh = false }: { fresh?: boolean } = {}): Promise<void> {
    const batches: string[][] = [];
    let size = BATCH_MESSAGES;
    for (const c of conversations) {
      if (size >= BATCH_MESSAGES) {
        batches.push([]);
        size = 0;
      }
      batches[batches.length - 1]!.push(c.id);
      size += Math.max(1, c.nextSeq);
    }
    let next = batches.length > 0 ? this.#readBatch(batches[0]!, fresh) : null;
    let writing: Promise<void> = Promise.resolve();
    for (const [k, ids] of batches.entries()) {
      const [rows, messageLists, cards] = await next!;
      next = k + 1 < batches.length ? this.#readBatch(batches[k + 1]!, fresh) : null;
      // Awaited later (or never, if a write fails first): its rejection is handled then, not reported as unhandled now.
      next?.catch(() => undefined);
      const writes: ConversationWrite[] = [];
      const gone: string[] = [];
      ids.forEach((id, i) => {
        const row = rows[i];
        if (!row) return gone.push(id);
        this.#view.putConversation(id, row.title, row.updatedAt);
        writes.push({ conversationId: id, docs: conversationDocs(messageLists[i]!, cards[i]!), whole: { updatedAt: row.updatedAt } });
      });
      // One write in flight: the last batch's is committed while this one was folded.
      await writing;
      writing = (async () => {
        await this.#remove(gone);
        for (const row of await this.#writer.write(writes, { fresh })) this.#view.putCovered(row);
      })();
      writing.catch(() => undefined);
      await yieldToEventLoop();
    }
    await writing;
  }

  /** A batch's conversations, messages and cards, in one transaction. */
  #readBatch(ids: readonly string[], fresh: boolean) {
    const { conversations: table, messages, pausePoints } = this.db;
    return this.db.transaction('r', [table, messages, pausePoints], () =>
      Promise.all([
        table.bulkGet([...ids]),
        fresh ? inRange(ids, (first, last) => messages.where('[conversationId+seq]').between([first, Dexie.minKey], [last, Dexie.maxKey]).toArray()) : Promise.all(ids.map((id) => messages.where('[conversationId+seq]').between([id, Dexie.minKey], [id, Dexie.maxKey]).toArray())),
        fresh ? inRange(ids, (first, last) => pausePoints.where('conversationId').between(first, last, true, true).toArray()) : Promise.all(ids.map((id) => pausePoints.where('conversationId').equals(id).toArray())),
      ]),
    );
  }

  async #remove(conversationIds: readonly string[]): Promise<void> {
    if (conversationIds.length === 0) return;
    await this.#writer.remove(conversationIds);
    for (const id of conversationIds) {
      this.#view.removeConversation(id);
      this.#view.removeCovered(id);
    }
  }

  /**
   * Conversations written while no tab was indexing (or by a bulk write):
   * those whose `updatedAt` differs from their coverage's are indexed again,
   * those gone are removed. A coverage with no conversation and no
   * `updatedAt` is of messages synced before their conversation: kept.
   */
  async #catchUp(): Promise<void> {
    await this.locks.withLock(SEARCH_INDEX_LOCK, async () => {
      const { conversations, searchCovered } = this.db;
      const [rows, covered] = await this.db.transaction('r', [conversations, searchCovered], () => Promise.all([conversations.toArray(), searchCovered.toArray()]));
      const coveredAt = new Map(covered.map((row) => [row.conversationId, row.updatedAt]));
      const present = new Set(rows.map((c) => c.id));
      // What this tab holds in memory, read here once: a tab's first use, and a bulk write, read both tables whole anyway.
      for (const c of rows) this.#view.putConversation(c.id, c.title, c.updatedAt);
      for (const row of covered) this.#view.putCovered(row);
      await this.#remove(covered.filter((row) => row.updatedAt !== -1 && !present.has(row.conversationId)).map((row) => row.conversationId));
      for (const id of [...this.#view.conversations.keys()]) if (!present.has(id)) this.#view.removeConversation(id);
      await this.#index(rows.filter((c) => coveredAt.get(c.id) !== c.updatedAt));
    });
  }

  #noteChanges(parts: ObservabilitySet): void {
    for (const table of WATCHED) {
      const tree = parts[`idb://${this.db.name}/${table}/`];
      if (!tree) continue;
      for (const { from, to } of RangeSet(tree)) {
        if (typeof from === 'string' && from === to) this.#changed[table].add(from);
        else if (table === 'searchCovered') this.#reloadCovered = true;
        else this.#reconcile = true;
      }
    }
    // Applied soon rather than at the next search, so a long stream of writes never piles up unread.
    if (this.#loaded) void this.#applySoon();
  }

  #scheduled = false;
  #closed = false;
  async #applySoon(): Promise<void> {
    if (this.#scheduled) return;
    this.#scheduled = true;
    await new Promise((resolve) => setTimeout(resolve, 50));
    this.#scheduled = false;
    if (this.#closed) return;
    await this.#ready().catch((error: unknown) => console.error('Pausepoint: updating the search index failed', error));
  }

  /** Applies the changes noted since the last time: to this tab's view, and to the stored index. */
  async #apply(): Promise<void> {
    const take = (table: Watched) => {
      const keys = [...this.#changed[table]];
      this.#changed[table].clear();
      return keys;
    };
    const [conversationIds, messageIds, cardIds, coveredIds] = [take('conversations'), take('messages'), take('pausePoints'), take('searchCovered')];
    const reconcile = this.#reconcile;
    const reloadCovered = this.#reloadCovered;
    this.#reconcile = this.#reloadCovered = false;

    const { conversations, searchCovered } = this.db;
    const [rows, covered] = await this.db.transaction('r', [conversations, searchCovered], () =>
      Promise.all([conversations.bulkGet(conversationIds), reloadCovered ? searchCovered.toArray() : searchCovered.bulkGet([...coveredIds, ...conversationIds])]),
    );
    // Other tabs' writes to the index: which conversation each block is of.
    if (reloadCovered) for (const row of covered) if (row) this.#view.putCovered(row);
    coveredIds.forEach((id, i) => {
      if (reloadCovered) return;
      const row = covered[i];
      if (row) this.#view.putCovered(row);
      else this.#view.removeCovered(id);
    });
    const isCovered = new Set(covered.flatMap((row) => (row ? [row.conversationId] : [])));
    const gone: string[] = [];
    const fresh: Conversation[] = [];
    conversationIds.forEach((id, i) => {
      const row = rows[i];
      if (!row) return gone.push(id);
      this.#view.putConversation(id, row.title, row.updatedAt);
      // A conversation the index has never seen (new, or arrived by sync after its messages): indexed whole.
      if (!isCovered.has(id) && !this.#view.hasCovered(id)) fresh.push(row);
    });
    if (gone.length + fresh.length + messageIds.length + cardIds.length === 0 && !reconcile) return;

    await this.locks.withLock(SEARCH_INDEX_LOCK, async () => {
      await this.#remove(gone);
      await this.#index(fresh);
      // Read under the lock, so what is written is what the records hold now, whichever tab writes it.
      const { messages, pausePoints } = this.db;
      const [messageRows, cardRows] = await this.db.transaction('r', [messages, pausePoints], async () => {
        const changedCards = (await pausePoints.bulkGet(cardIds)).filter((p) => p !== undefined);
        const withCards = [...new Set(changedCards.map((p) => p.conversationId))];
        return Promise.all([messages.bulkGet(messageIds), Promise.all(withCards.map((id) => pausePoints.where('conversationId').equals(id).toArray())).then((lists) => lists.flat())]);
      });
      const writes = new Map<string, ConversationWrite & { docs: ConversationWrite['docs'][number][] }>();
      const writeOf = (conversationId: string) => {
        let write = writes.get(conversationId);
        if (!write) writes.set(conversationId, (write = { conversationId, docs: [] }));
        return write;
      };
      for (const m of messageRows) {
        // A streamed answer is indexed once it ends, not on every chunk.
        if (!m || (m.role === 'assistant' && m.status === 'streaming')) continue;
        writeOf(m.conversationId).docs.push(messageDoc(m));
      }
      const cardsOf = new Map<string, typeof cardRows>();
      for (const p of cardRows) cardsOf.set(p.conversationId, [...(cardsOf.get(p.conversationId) ?? []), p]);
      for (const [conversationId, cards] of cardsOf) writeOf(conversationId).docs.push(...cardDocs(cards));
      if (writes.size > 0) for (const row of await this.#writer.write([...writes.values()])) this.#view.putCovered(row);
    });
    if (reconcile) await this.#catchUp();
  }
}
