import MiniSearch from 'minisearch';
import type { Conversation, Message, PausePoint } from '../../src/engine/records/index.ts';
import { BLOCK_SIZE } from '../../src/storage/records/search-records.ts';
import { cardText, messageText } from '../../src/search/searchable-text.ts';
import { wordSegments, wordTerms } from '../../src/search/word-segments.ts';

/**
 * The candidate bench:search measures against the stored index: MiniSearch
 * 7.2 (what each worker held before) with fewer, larger documents — a block
 * of BLOCK_SIZE messages of a conversation, its cards, its title — in
 * memory, persisted as its JSON snapshot (MiniSearch has no incremental
 * persistence: a tab loads the whole snapshot). A block holds the query's
 * words when any of its messages do, together or apart.
 */
export class MiniSearchBlocks {
  readonly mini = new MiniSearch<{ id: string; text: string }>({
    fields: ['text'],
    tokenize: (text) => wordSegments(text).map(({ segment }) => segment),
    processTerm: (term) => wordTerms(term),
  });
  readonly #conversationOf = new Map<string, string>();
  readonly #updatedAt = new Map<string, number>();

  add(conversation: Conversation, messages: readonly Message[], cards: readonly PausePoint[]): void {
    this.#updatedAt.set(conversation.id, conversation.updatedAt);
    const docs: { id: string; text: string }[] = [{ id: `t:${conversation.id}`, text: conversation.title }];
    for (let start = 0; start < messages.length; start += BLOCK_SIZE) {
      docs.push({ id: `m:${conversation.id}:${start / BLOCK_SIZE}`, text: messages.slice(start, start + BLOCK_SIZE).map(messageText).join('\n') });
    }
    if (cards.length > 0) docs.push({ id: `p:${conversation.id}`, text: cards.map(cardText).join('\n') });
    for (const doc of docs) this.#conversationOf.set(doc.id, conversation.id);
    this.mini.addAll(docs);
  }

  /** Conversations whose block holds every word (the last as a prefix), newest first: the count, and the first `limit`. */
  search(query: string, limit: number): { total: number; ids: string[] } {
    const hits = new Set<string>();
    const results = this.mini.search(query, { combineWith: 'AND', prefix: (term, index, terms) => index === terms.length - 1 && term.length >= 2 });
    for (const result of results) hits.add(this.#conversationOf.get(String(result.id))!);
    const ids = [...hits].sort((a, b) => this.#updatedAt.get(b)! - this.#updatedAt.get(a)!).slice(0, limit);
    return { total: hits.size, ids };
  }
}
