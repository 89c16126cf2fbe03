import MiniSearch from 'minisearch';
import type { SearchResult } from './search-result.ts';
import { foldText } from './fold-text.ts';
import { wordSegments, wordTerms } from './word-segments.ts';

/** Where a match was found: a conversation's title, one of its messages (a tool result is a message), or one of its cards. */
export type SearchSource = SearchResult['source'];

/** A conversation that matches, with the one place in it its snippet comes from. */
export interface ConversationHit {
  conversationId: string;
  title: string;
  updatedAt: number;
  source: SearchSource;
}

interface IndexedDoc {
  id: string;
  text: string;
}

interface DocInfo {
  conversationId: string;
  source: SearchSource;
  /** When the record was written: between two equally good matches in a conversation, the newer one is shown. */
  at: number;
}

interface ConversationInfo {
  title: string;
  /** The title folded, for the substring match the sidebar's filter made (see `search`). */
  folded: string;
  updatedAt: number;
}

/** A term shorter than this is matched whole, never as a prefix: one letter as a prefix matches nearly everything. */
const MIN_PREFIX = 2;

const docId = (source: SearchSource, conversationId: string): string =>
  source.kind === 'title' ? `t:${conversationId}` : source.kind === 'message' ? `m:${source.messageId}` : `p:${source.pausePointId}`;

/**
 * The search index of every conversation: its title, the text of its
 * messages (tool results included) and of its cards, one document each, in
 * a MiniSearch index (an inverted index over a radix tree, with BM25
 * ranking). Terms are words on Unicode boundaries, folded for case and
 * diacritics (word-segments.ts, fold-text.ts), the same for the text and
 * the query. Pure: what feeds it from storage is search-service.ts.
 */
export class SearchIndex {
  readonly #mini = new MiniSearch<IndexedDoc>({
    fields: ['text'],
    tokenize: (text) => wordSegments(text).map(({ segment }) => segment),
    processTerm: (term) => wordTerms(term),
    // Vacuuming (dropping discarded documents' postings) runs in batches in the background.
    autoVacuum: true,
  });
  readonly #docs = new Map<string, DocInfo>();
  readonly #byConversation = new Map<string, Set<string>>();
  readonly #conversations = new Map<string, ConversationInfo>();

  /** Documents in the index (titles, messages, cards). */
  get size(): number {
    return this.#docs.size;
  }

  /** Adds a conversation, or updates its title and time (a rename, a new message). */
  putConversation(conversationId: string, title: string, updatedAt: number): void {
    const known = this.#conversations.get(conversationId);
    this.#conversations.set(conversationId, { title, folded: foldText(title), updatedAt });
    if (known?.title === title && this.#docs.has(docId({ kind: 'title' }, conversationId))) return;
    this.#put(conversationId, { kind: 'title' }, title, updatedAt);
  }

  /** Forgets a conversation and everything indexed of it. */
  removeConversation(conversationId: string): void {
    this.#conversations.delete(conversationId);
    for (const id of this.#byConversation.get(conversationId) ?? []) this.#discard(id);
    this.#byConversation.delete(conversationId);
  }

  /** Adds a message's or card's text, or replaces what was indexed of it (a streamed answer grows). Empty text is left out. */
  putText(conversationId: string, source: Exclude<SearchSource, { kind: 'title' }>, text: string, at: number): void {
    this.#put(conversationId, source, text, at);
  }

  /** Forgets one message or card. */
  removeText(source: Exclude<SearchSource, { kind: 'title' }>): void {
    const id = docId(source, '');
    const info = this.#docs.get(id);
    if (!info) return;
    this.#discard(id);
    this.#byConversation.get(info.conversationId)?.delete(id);
  }

  /** Whether a message or card is in the index. */
  hasText(source: Exclude<SearchSource, { kind: 'title' }>): boolean {
    return this.#docs.has(docId(source, ''));
  }

  /** The conversations ever put and not removed. */
  conversationIds(): IterableIterator<string> {
    return this.#conversations.keys();
  }

  /**
   * The conversations matching `query`, newest first (by their last
   * activity), at most `limit`, and how many match in all. A conversation
   * matches when one of its documents holds every word of the query (the
   * last one as a prefix: it may still be being typed), or when its title
   * contains the query as typed (what the sidebar's title filter did,
   * mid-word included). Its hit names its best-ranked document, the newer
   * of two as good, a message or card before the title.
   */
  search(query: string, limit: number): { hits: ConversationHit[]; total: number } {
    const best = new Map<string, { source: SearchSource; score: number; at: number }>();
    const results = this.#mini.search(query, {
      combineWith: 'AND',
      prefix: (term, index, terms) => index === terms.length - 1 && term.length >= MIN_PREFIX,
    });
    for (const result of results) {
      const info = this.#docs.get(String(result.id));
      if (!info) continue;
      const held = best.get(info.conversationId);
      if (!held || better({ ...info, score: result.score }, held)) best.set(info.conversationId, { source: info.source, score: result.score, at: info.at });
    }
    const needle = foldText(query.trim());
    if (needle) {
      for (const [conversationId, { folded, updatedAt }] of this.#conversations) {
        if (!best.has(conversationId) && folded.includes(needle)) best.set(conversationId, { source: { kind: 'title' }, score: 0, at: updatedAt });
      }
    }
    const hits: ConversationHit[] = [];
    for (const [conversationId, { source }] of best) {
      const conversation = this.#conversations.get(conversationId);
      // Text of a conversation not (yet) known, as a message synced before its conversation: not listed until it is.
      if (conversation) hits.push({ conversationId, title: conversation.title, updatedAt: conversation.updatedAt, source });
    }
    hits.sort((a, b) => b.updatedAt - a.updatedAt || (a.conversationId < b.conversationId ? -1 : 1));
    return { hits: hits.slice(0, Math.max(0, limit)), total: hits.length };
  }

  #put(conversationId: string, source: SearchSource, text: string, at: number): void {
    const id = docId(source, conversationId);
    const known = this.#docs.get(id);
    if (known) {
      this.#discard(id);
      this.#byConversation.get(known.conversationId)?.delete(id);
    }
    if (text.trim() === '') return;
    this.#mini.add({ id, text });
    this.#docs.set(id, { conversationId, source, at });
    let ids = this.#byConversation.get(conversationId);
    if (!ids) this.#byConversation.set(conversationId, (ids = new Set()));
    ids.add(id);
  }

  #discard(id: string): void {
    if (!this.#docs.delete(id)) return;
    this.#mini.discard(id);
  }
}

function better(candidate: { source: SearchSource; score: number; at: number }, held: { source: SearchSource; score: number; at: number }): boolean {
  const titleOnly = (s: SearchSource) => (s.kind === 'title' ? 1 : 0);
  if (titleOnly(candidate.source) !== titleOnly(held.source)) return titleOnly(candidate.source) < titleOnly(held.source);
  if (candidate.score !== held.score) return candidate.score > held.score;
  return candidate.at > held.at;
}
