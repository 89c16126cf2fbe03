import { documentTerms } from './document-terms.ts';
import { foldText } from './fold-text.ts';
import type { SearchCoveredRow } from '../storage/records/search-records.ts';

/** A conversation as search lists it, and its title's terms and folded text, for a title's match. */
export interface ConversationEntry {
  title: string;
  updatedAt: number;
  titleTerms: readonly string[];
  folded: string;
}

/** A block's conversation and part. */
export interface BlockEntry {
  conversationId: string;
  part: number;
}

/**
 * What one tab holds in memory to answer from the stored index: each
 * conversation's title and time (a few hundred bytes each), and which
 * conversation each block belongs to. The postings stay in IndexedDB.
 */
export class IndexView {
  readonly conversations = new Map<string, ConversationEntry>();
  readonly blocks = new Map<number, BlockEntry>();
  readonly #blocksOf = new Map<string, readonly (readonly [number, number])[]>();

  putConversation(id: string, title: string, updatedAt: number): void {
    const known = this.conversations.get(id);
    if (known?.title === title) {
      known.updatedAt = updatedAt;
      return;
    }
    this.conversations.set(id, { title, updatedAt, titleTerms: documentTerms(title), folded: foldText(title) });
  }

  removeConversation(id: string): void {
    this.conversations.delete(id);
  }

  putCovered(row: SearchCoveredRow): void {
    this.removeCovered(row.conversationId);
    this.#blocksOf.set(row.conversationId, row.blocks);
    for (const [part, id] of row.blocks) this.blocks.set(id, { conversationId: row.conversationId, part });
  }

  hasCovered(conversationId: string): boolean {
    return this.#blocksOf.has(conversationId);
  }

  removeCovered(conversationId: string): void {
    for (const [, id] of this.#blocksOf.get(conversationId) ?? []) this.blocks.delete(id);
    this.#blocksOf.delete(conversationId);
  }

  clear(): void {
    this.conversations.clear();
    this.blocks.clear();
    this.#blocksOf.clear();
  }
}
