import Dexie, { RangeSet, type EntityTable, type ObservabilitySet } from 'dexie';
import { yieldToEventLoop } from '../common/yield-to-event-loop.ts';
import type { PausepointDb } from '../storage/db.ts';
import { SearchIndex, type SearchSource } from './search-index.ts';
import type { SearchResults } from './search-result.ts';
import { searchSnippet } from './search-snippet.ts';
import { cardText, messageText } from './searchable-text.ts';

/** Records read per transaction while the index is built: each page indexed is one task of the worker (tens of ms), so its intents wait no longer. */
const BUILD_PAGE = 500;

type Watched = 'conversations' | 'messages' | 'pausePoints';
const WATCHED: readonly Watched[] = ['conversations', 'messages', 'pausePoints'];

/**
 * Conversation search as the worker runs it: a SearchIndex built from the
 * stored records on first use, then kept up to date from Dexie's
 * `storagemutated` events, which name the keys every write changed — this
 * worker's engine writes, and the writes of other tabs, other workers and
 * sync (src/sync writes records straight into the tables), which Dexie
 * relays between contexts. So whatever reaches the tables is found, and
 * whatever leaves them (a deleted conversation) is not. Changed keys are
 * read back and indexed in batches; a search first applies those waiting.
 */
export class SearchService {
  #index = new SearchIndex();
  #built: Promise<void> | null = null;
  readonly #changed: Record<Watched, Set<string>> = { conversations: new Set(), messages: new Set(), pausePoints: new Set() };
  /** A change no list of keys describes (a table cleared, the database recreated): the index is rebuilt on next use. */
  #stale = false;
  #applying: Promise<void> = Promise.resolve();
  readonly #onMutated = (parts: ObservabilitySet) => this.#noteChanges(parts);

  constructor(private readonly db: PausepointDb) {
    // Listening from the start, so nothing written while the index is built is missed (it is read again after).
    Dexie.on('storagemutated', this.#onMutated);
  }

  /** Builds the index if it is not yet (the search field's focus asks for it), and applies what changed. */
  async warm(): Promise<void> {
    await this.#ready();
  }

  /** Documents indexed (titles, messages, cards). */
  get size(): number {
    return this.#index.size;
  }

  /** The conversations matching `query`, newest first, with a snippet of each one's match. */
  async search(query: string, limit: number): Promise<SearchResults> {
    await this.#ready();
    const { hits, total } = this.#index.search(query, limit);
    const messageIds = hits.flatMap(({ source }) => (source.kind === 'message' ? [source.messageId] : []));
    const cardIds = hits.flatMap(({ source }) => (source.kind === 'card' ? [source.pausePointId] : []));
    const { messages, pausePoints } = this.db;
    const [messageRows, cardRows] = await this.db.transaction('r', [messages, pausePoints], () =>
      Promise.all([messages.bulkGet(messageIds), pausePoints.bulkGet(cardIds)]),
    );
    const texts = new Map<string, string>();
    for (const m of messageRows) if (m) texts.set(`m:${m.id}`, messageText(m));
    for (const p of cardRows) if (p) texts.set(`p:${p.id}`, cardText(p));
    const results = hits.map(({ conversationId, title, updatedAt, source }) => {
      // A record deleted since it was found falls back to the title: the conversation is still there.
      const text = texts.get(key(source));
      const shown: SearchSource = text === undefined ? { kind: 'title' } : source;
      return { conversationId, title, updatedAt, source: shown, snippet: searchSnippet(text ?? title, query) };
    });
    return { results, total };
  }

  /** Stops following the tables (tests, and a bench that builds several). */
  close(): void {
    Dexie.on.storagemutated.unsubscribe(this.#onMutated);
  }

  async #ready(): Promise<void> {
    if (this.#stale) {
      this.#stale = false;
      this.#built = null;
      for (const keys of Object.values(this.#changed)) keys.clear();
    }
    this.#built ??= this.#build().catch((error: unknown) => {
      this.#built = null;
      throw error;
    });
    await this.#built;
    if (WATCHED.some((table) => this.#changed[table].size > 0)) this.#applying = this.#applying.then(() => this.#apply());
    await this.#applying;
  }

  #noteChanges(parts: ObservabilitySet): void {
    for (const table of WATCHED) {
      const tree = parts[`idb://${this.db.name}/${table}/`];
      if (!tree) continue;
      for (const { from, to } of RangeSet(tree)) {
        if (typeof from === 'string' && from === to) this.#changed[table].add(from);
        else this.#stale = true;
      }
    }
    // Applied soon rather than at the next search, so a long stream of writes never piles up unread.
    if (this.#built && !this.#stale) void this.#applySoon();
  }

  #scheduled = false;
  async #applySoon(): Promise<void> {
    if (this.#scheduled) return;
    this.#scheduled = true;
    await new Promise((resolve) => setTimeout(resolve, 50));
    this.#scheduled = false;
    await this.#ready().catch((error: unknown) => console.error('Pausepoint: updating the search index failed', error));
  }

  /** Reads back every changed key and indexes what it holds now: a record gone is forgotten. */
  async #apply(): Promise<void> {
    const take = (table: Watched) => {
      const keys = [...this.#changed[table]];
      this.#changed[table].clear();
      return keys;
    };
    const [conversationIds, messageIds, cardIds] = [take('conversations'), take('messages'), take('pausePoints')];
    if (conversationIds.length + messageIds.length + cardIds.length === 0) return;
    const { conversations, messages, pausePoints } = this.db;
    const [c, m, p] = await this.db.transaction('r', [conversations, messages, pausePoints], () =>
      Promise.all([conversations.bulkGet(conversationIds), messages.bulkGet(messageIds), pausePoints.bulkGet(cardIds)]),
    );
    const index = this.#index;
    conversationIds.forEach((id, i) => {
      const row = c[i];
      if (row) index.putConversation(id, row.title, row.updatedAt);
      else index.removeConversation(id);
    });
    messageIds.forEach((id, i) => {
      const row = m[i];
      if (row) index.putText(row.conversationId, { kind: 'message', messageId: id }, messageText(row), row.createdAt);
      else index.removeText({ kind: 'message', messageId: id });
    });
    cardIds.forEach((id, i) => {
      const row = p[i];
      if (row) index.putText(row.conversationId, { kind: 'card', pausePointId: id }, cardText(row), row.createdAt);
      else index.removeText({ kind: 'card', pausePointId: id });
    });
  }

  /** A fresh index of every stored conversation, message and card, read a page per transaction, yielding between pages. */
  async #build(): Promise<void> {
    const index = new SearchIndex();
    for (const c of await this.db.conversations.toArray()) index.putConversation(c.id, c.title, c.updatedAt);
    await pages(this.db.messages, (m) => index.putText(m.conversationId, { kind: 'message', messageId: m.id }, messageText(m), m.createdAt));
    await pages(this.db.pausePoints, (p) => index.putText(p.conversationId, { kind: 'card', pausePointId: p.id }, cardText(p), p.createdAt));
    this.#index = index;
  }
}

const key = (source: SearchSource) => (source.kind === 'message' ? `m:${source.messageId}` : source.kind === 'card' ? `p:${source.pausePointId}` : 't:');

/** Every row of a table keyed by string ids, in key order, `BUILD_PAGE` per read. */
async function pages<T extends { id: string }>(table: EntityTable<T, 'id'>, each: (row: T) => void): Promise<void> {
  let after = '';
  for (;;) {
    const rows = await table.where(':id').above(after).limit(BUILD_PAGE).toArray();
    for (const row of rows) each(row);
    if (rows.length < BUILD_PAGE) return;
    after = rows[rows.length - 1]!.id;
    await yieldToEventLoop();
  }
}
