import type { PausepointDb } from '../storage/db.ts';
import { cardIndex, orderCards } from './conversation-docs.ts';
import { queryTerms } from './document-terms.ts';
import { foldText } from './fold-text.ts';
import type { IndexView } from './index-view.ts';
import { intersect, union } from './postings.ts';
import { BLOCK_SIZE } from '../storage/records/search-records.ts';
import type { SearchResults } from './search-result.ts';
import { searchSnippet } from './search-snippet.ts';
import { shardPostings, shardPrefixed } from './term-shards.ts';
import { cardText, messageText } from './searchable-text.ts';

/** A term shorter than this is matched whole, never as a prefix: one letter as a prefix matches nearly everything. */
const MIN_PREFIX = 2;

/** Where a conversation's match is: a message (by its `seq`), a card (by its place in creation order), or only the title. */
type Found = { kind: 'message'; seq: number } | { kind: 'card'; index: number } | { kind: 'title' };

/**
 * The documents holding every term of the query, the last also as a prefix
 * (it may still be being typed, from two letters): the shard of each term
 * read (term-shards.ts), the prefix's shards as one key range beside the
 * one it starts in, and the lists intersected shortest first.
 */
async function matchingDocs(db: PausepointDb, terms: readonly string[]): Promise<Uint32Array> {
  if (terms.length === 0) return new Uint32Array(0);
  const last = terms[terms.length - 1]!;
  const asPrefix = last.length >= MIN_PREFIX;
  const exact = asPrefix ? terms.slice(0, -1) : terms;
  const { searchTerms } = db;
  // A term's shard is the last one keyed at or before it.
  const shardOf = (term: string) => searchTerms.where('term').belowOrEqual(term).last();
  const [rows, prefixed] = await db.transaction('r', searchTerms, () =>
    Promise.all([Promise.all(exact.map(shardOf)), asPrefix ? Promise.all([shardOf(last), searchTerms.where('term').startsWith(last).toArray()]) : Promise.resolve(null)]),
  );
  const lists = exact.map((term, i) => (rows[i] ? shardPostings(rows[i], term) : undefined));
  if (lists.some((list) => !list)) return new Uint32Array(0);
  if (prefixed) {
    const [at, after] = prefixed;
    const shards = at && !after.some((row) => row.term === at.term) ? [at, ...after] : after;
    const found = shards.flatMap((row) => shardPrefixed(row, last));
    if (found.length === 0) return new Uint32Array(0);
    lists.push(union(found));
  }
  return intersect(lists as Uint32Array[]);
}

/** Whether a title's terms hold every query term, the last perhaps as a prefix. */
function titleHolds(titleTerms: readonly string[], terms: readonly string[]): boolean {
  if (terms.length === 0) return false;
  const last = terms.length - 1;
  return terms.every((term, i) => titleTerms.some((t) => t === term || (i === last && term.length >= MIN_PREFIX && t.startsWith(term))));
}

/**
 * The conversations matching `query`, newest first (by their last
 * activity), at most `limit`, with how many match in all and a snippet of
 * each one's match. A conversation matches when one of its messages or cards
 * holds every word of the query (the last as a prefix), or its title does, or
 * its title contains the query as typed (what the sidebar's title filter
 * did, mid-word included). Its result opens at the newest message that
 * matches, else the newest card, else the title.
 */
export async function searchIndex(db: PausepointDb, view: IndexView, query: string, limit: number): Promise<SearchResults> {
  const terms = queryTerms(query);
  const docs = await matchingDocs(db, terms);
  const found = new Map<string, { found: Found; rank: number }>();
  for (const doc of docs) {
    const block = view.blocks.get(Math.floor(doc / BLOCK_SIZE));
    // A block no longer mapped is of a conversation removed since; a conversation not known yet (a message synced before it) is not listed.
    if (!block || !view.conversations.has(block.conversationId)) continue;
    const place = doc % BLOCK_SIZE;
    // Messages before cards, newer before older.
    const at: Found = block.part >= 0 ? { kind: 'message', seq: block.part * BLOCK_SIZE + place } : { kind: 'card', index: cardIndex(block.part, place) };
    const rank = at.kind === 'message' ? 2 ** 40 + at.seq : at.kind === 'card' ? at.index : -1;
    const held = found.get(block.conversationId);
    if (!held || rank > held.rank) found.set(block.conversationId, { found: at, rank });
  }
  const needle = foldText(query.trim());
  for (const [id, { titleTerms, folded }] of view.conversations) {
    if (!found.has(id) && (titleHolds(titleTerms, terms) || (needle !== '' && folded.includes(needle)))) found.set(id, { found: { kind: 'title' }, rank: -1 });
  }
  const listed = [...found.keys()]
    .map((id) => ({ id, updatedAt: view.conversations.get(id)!.updatedAt }))
    .sort((a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? -1 : 1))
    .slice(0, Math.max(0, limit));
  const texts = await readTexts(db, listed.map(({ id }) => [id, found.get(id)!.found] as const));
  const results = listed.map(({ id, updatedAt }) => {
    const { title } = view.conversations.get(id)!;
    const text = texts.get(id);
    // A record deleted since it was indexed falls back to the title: the conversation is still there.
    if (!text) return { conversationId: id, title, updatedAt, source: { kind: 'title' as const }, snippet: searchSnippet(title, query) };
    return { conversationId: id, title, updatedAt, source: text.source, snippet: searchSnippet(text.text, query) };
  });
  return { results, total: found.size };
}

type Source = SearchResults['results'][number]['source'];

/** The text each listed conversation's match is in, read in one transaction: a message by its `seq`, a card by its place among the conversation's cards. */
async function readTexts(db: PausepointDb, listed: readonly (readonly [string, Found])[]): Promise<Map<string, { source: Source; text: string }>> {
  const { messages, pausePoints } = db;
  const messageKeys = listed.flatMap(([id, f]) => (f.kind === 'message' ? [[id, f.seq] as [string, number]] : []));
  const cardsOf = listed.flatMap(([id, f]) => (f.kind === 'card' ? [id] : []));
  const [messageRows, cardRows] = await db.transaction('r', [messages, pausePoints], () =>
    Promise.all([
      // One key lookup each: `anyOf` walks the index with a cursor.
      Promise.all(messageKeys.map((key) => messages.where('[conversationId+seq]').equals(key).first())),
      Promise.all(cardsOf.map((id) => pausePoints.where('conversationId').equals(id).toArray())),
    ]),
  );
  const texts = new Map<string, { source: Source; text: string }>();
  const bySeq = new Map(messageRows.flatMap((m) => (m ? [[`${m.conversationId}\u0000${m.seq}`, m] as const] : [])));
  const cardsByConversation = new Map(cardsOf.map((id, i) => [id, cardRows[i]!]));
  for (const [id, f] of listed) {
    if (f.kind === 'message') {
      const m = bySeq.get(`${id}\u0000${f.seq}`);
      if (m) texts.set(id, { source: { kind: 'message', messageId: m.id }, text: messageText(m) });
    } else if (f.kind === 'card') {
      const card = orderCards(cardsByConversation.get(id) ?? [])[f.index];
      if (card) texts.set(id, { source: { kind: 'card', pausePointId: card.id }, text: cardText(card) });
    }
  }
  return texts;
}
