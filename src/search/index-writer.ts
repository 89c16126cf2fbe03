import type { PausepointDb } from '../storage/db.ts';
import type { DocAt } from './conversation-docs.ts';
import { updatePostings } from './postings.ts';
import { BLOCK_SIZE, SEARCH_FORMAT, type SearchBlockRow, type SearchCoveredRow, type SearchDoc, type SearchShardRow, type SearchStateRow } from '../storage/records/search-records.ts';
import { packShards, shardEntries, shardKeyOf } from './term-shards.ts';

/** What to write of one conversation: documents at their places; `whole`, when they are all it has now (its other blocks go, and its `updatedAt` is recorded). */
export interface ConversationWrite {
  conversationId: string;
  docs: readonly DocAt[];
  whole?: { updatedAt: number };
}

const EMPTY = new Uint32Array(0);

/**
 * Postings a build gathers in memory before writing them (up to about 30 MB
 * of numbers, held only while it builds): 100,000 messages make about 2.5
 * million, so their terms are written once; a longer history's are written
 * in turns, each term's shard read back and extended, so the heap a build
 * takes stays bounded whatever the history's size.
 */
const BUILD_FLUSH = 4_000_000;

/** The term changes of a batch: document numbers to add to and remove from each term's list. */
class PostingChanges {
  readonly added = new Map<string, number[]>();
  readonly removed = new Map<string, number[]>();
  /** Postings added so far. */
  count = 0;

  add(term: string, doc: number): void {
    push(this.added, term, doc);
    this.count++;
  }

  remove(term: string, doc: number): void {
    push(this.removed, term, doc);
  }

  get size(): number {
    return this.added.size + this.removed.size;
  }
}

function push<T>(map: Map<string, T[]>, term: string, doc: T): void {
  const list = map.get(term);
  if (list) list.push(doc);
  else map.set(term, [doc]);
}

const ascending = (list: number[] | undefined): number[] => (list ? list.sort((a, b) => a - b) : []);

/**
 * Writes the stored search index: documents replaced by diffing their terms
 * against what their block holds, so writing a document twice changes
 * nothing and any tab may write what it saw; conversations removed with
 * their postings. The caller holds the index's lock (search-service.ts):
 * one writer at a time.
 */
export class IndexWriter {
  /**
   * While a build writes pages (`fresh`), their postings gather here and are
   * written in shards every BUILD_FLUSH postings and at `finish`: each
   * shard written once or a few times, not once per page.
   */
  #gathered = new PostingChanges();

  constructor(private readonly db: PausepointDb) {}

  /** A fresh, empty index of the current format, marked unfinished until `finish`. */
  async start(): Promise<SearchStateRow> {
    const { searchTerms, searchBlocks, searchCovered, searchState } = this.db;
    const state: SearchStateRow = { key: 'index', format: SEARCH_FORMAT, complete: false, nextBlock: 1, generation: crypto.randomUUID() };
    await this.db.transaction('rw', [searchTerms, searchBlocks, searchCovered, searchState], async () => {
      this.#gathered = new PostingChanges();
      await Promise.all([searchTerms.clear(), searchBlocks.clear(), searchCovered.clear()]);
      await searchState.put(state);
    });
    return state;
  }

  /** Writes what the build's pages gathered, and marks the index complete. */
  async finish(): Promise<void> {
    const { searchTerms, searchState } = this.db;
    await this.db.transaction('rw', [searchTerms, searchState], async () => {
      await this.#flushBuilding();
      await searchState.update('index', { complete: true });
    });
  }

  async #flushBuilding(): Promise<void> {
    const changes = this.#gathered;
    this.#gathered = new PostingChanges();
    await this.#applyPostings(changes);
  }

  /**
   * Writes documents of several conversations in one transaction, and
   * returns their coverage as it now stands. `fresh`: the index was just
   * started and these conversations are not in it yet, so nothing is read
   * back to diff against, and their postings gather until `finish` (a
   * build's pages).
   */
  async write(writes: readonly ConversationWrite[], { fresh = false }: { fresh?: boolean } = {}): Promise<SearchCoveredRow[]> {
    if (writes.length === 0) return [];
    const { searchTerms, searchBlocks, searchCovered, searchState } = this.db;
    return this.db.transaction('rw', [searchTerms, searchBlocks, searchCovered, searchState], async () => {
      const state = await searchState.get('index');
      if (!state) throw new Error('The search index is not started.');
      const ids = writes.map((w) => w.conversationId);
      const coveredRows = fresh ? ids.map(() => undefined) : await searchCovered.bulkGet(ids);
      // A build's pages add their postings straight to what it gathers.
      const changes = fresh ? this.#gathered : new PostingChanges();
      const putBlocks: SearchBlockRow[] = [];
      const dropBlocks: number[] = [];
      const covered: SearchCoveredRow[] = [];
      for (const [i, write] of writes.entries()) {
        const row = coveredRows[i] ?? { conversationId: write.conversationId, updatedAt: -1, blocks: [] };
        const blockOf = new Map(row.blocks);
        const touched = new Set(write.docs.map((d) => d.part));
        const gone = write.whole ? [...blockOf.keys()].filter((part) => !touched.has(part)) : [];
        const known = [...touched, ...gone].flatMap((part) => (blockOf.has(part) ? [blockOf.get(part)!] : []));
        const blocks = new Map<number, SearchBlockRow>();
        for (const block of fresh ? [] : await searchBlocks.bulkGet(known)) if (block) blocks.set(block.part, block);
        const blockFor = (part: number): SearchBlockRow => {
          let block = blocks.get(part);
          if (!block) {
            const id = blockOf.get(part) ?? state.nextBlock++;
            blockOf.set(part, id);
            block = { id, conversationId: write.conversationId, part, docs: [] };
            blocks.set(part, block);
          }
          return block;
        };
        const changed = new Set<SearchBlockRow>();
        for (const { part, place, doc, terms } of write.docs) {
          const block = blockFor(part);
          if (replaceDoc(block, place, doc, changes, terms)) changed.add(block);
        }
        // With `whole`, a place past the documents given is empty now (a card block's tail, say); a build's blocks hold only what it gave.
        if (write.whole && !fresh) {
          const given = new Set(write.docs.map((d) => `${d.part}:${d.place}`));
          for (const block of blocks.values()) {
            block.docs.forEach((_, place) => {
              if (!given.has(`${block.part}:${place}`) && replaceDoc(block, place, null, changes)) changed.add(block);
            });
          }
        }
        for (const part of gone) {
          const block = blocks.get(part);
          if (block) block.docs.forEach((_, place) => replaceDoc(block, place, null, changes));
          dropBlocks.push(blockOf.get(part)!);
          blockOf.delete(part);
          blocks.delete(part);
        }
        for (const block of changed) if (blocks.has(block.part)) putBlocks.push(block);
        covered.push({ conversationId: write.conversationId, updatedAt: write.whole?.updatedAt ?? row.updatedAt, blocks: [...blockOf].sort((a, b) => a[0] - b[0]) });
      }
      if (!fresh) await this.#applyPostings(changes);
      else if (this.#gathered.count >= BUILD_FLUSH) await this.#flushBuilding();
      await Promise.all([
        searchBlocks.bulkPut(putBlocks),
        searchBlocks.bulkDelete(dropBlocks),
        searchCovered.bulkPut(covered),
        searchState.put(state),
      ]);
      return covered;
    });
  }

  /** Forgets conversations: their blocks, coverage and postings. */
  async remove(conversationIds: readonly string[]): Promise<void> {
    const { searchTerms, searchBlocks, searchCovered } = this.db;
    await this.db.transaction('rw', [searchTerms, searchBlocks, searchCovered], async () => {
      const rows = await searchCovered.bulkGet([...conversationIds]);
      const ids = rows.flatMap((row) => row?.blocks.map(([, id]) => id) ?? []);
      const changes = new PostingChanges();
      for (const block of await searchBlocks.bulkGet(ids)) if (block) block.docs.forEach((_, place) => replaceDoc(block, place, null, changes));
      await this.#applyPostings(changes);
      await Promise.all([searchBlocks.bulkDelete(ids), searchCovered.bulkDelete([...conversationIds])]);
    });
  }

  /**
   * Writes each changed term's list: the shards holding the changed terms
   * are read (their keys first, one request), changed and packed again
   * (term-shards.ts), a shard that grew past its bounds split in several.
   */
  async #applyPostings(changes: PostingChanges): Promise<void> {
    if (changes.size === 0) return;
    const { searchTerms } = this.db;
    const terms = [...new Set([...changes.added.keys(), ...changes.removed.keys()])].sort();
    const keys = (await searchTerms.toCollection().primaryKeys()) as string[];
    // Changed terms by the shard holding them; terms before every shard's key go to a new first shard, ''.
    const byShard = new Map<string, string[]>();
    for (const term of terms) push(byShard, shardKeyOf(keys, term) ?? '', term);
    const shardKeys = [...byShard.keys()];
    const rows = await searchTerms.bulkGet(shardKeys);
    const put: SearchShardRow[] = [];
    const drop: string[] = [];
    shardKeys.forEach((key, i) => {
      const postingsOf = new Map(rows[i] ? shardEntries(rows[i]) : []);
      for (const term of byShard.get(key)!) {
        const postings = updatePostings(postingsOf.get(term) ?? EMPTY, ascending(changes.added.get(term)), ascending(changes.removed.get(term)));
        if (postings.length > 0) postingsOf.set(term, postings);
        else postingsOf.delete(term);
      }
      const entries = [...postingsOf].sort((a, b) => (a[0] < b[0] ? -1 : 1));
      const packed = packShards(key, entries);
      if (packed.length === 0 && rows[i]) drop.push(key);
      put.push(...packed);
    });
    await Promise.all([searchTerms.bulkPut(put), searchTerms.bulkDelete(drop)]);
  }
}

/** Puts `doc` at `place` in `block`, noting its postings' changes; false when it held the same already. `terms`: the document's, split already. */
function replaceDoc(block: SearchBlockRow, place: number, doc: SearchDoc | null, changes: PostingChanges, terms?: readonly string[]): boolean {
  const old = block.docs[place] ?? null;
  if (sameDoc(old, doc)) return false;
  const number = block.id * BLOCK_SIZE + place;
  if (old === null) {
    // Nothing to diff against (every document of a build): each of its terms, distinct as documentTerms made them, is added.
    // The strings documentTerms gave (cached per word, their hashes computed once) look up faster than a split's new ones.
    for (const term of terms ?? doc!.terms.split(' ')) changes.add(term, number);
  } else {
    // A posting names the place, not the record: only the terms that differ change.
    const before = new Set(old.terms.split(' '));
    const now = new Set(doc ? doc.terms.split(' ') : []);
    for (const term of before) if (!now.has(term)) changes.remove(term, number);
    for (const term of now) if (!before.has(term)) changes.add(term, number);
  }
  while (block.docs.length < place) block.docs.push(null);
  block.docs[place] = doc;
  while (block.docs.length > 0 && block.docs[block.docs.length - 1] === null) block.docs.pop();
  return true;
}

function sameDoc(a: SearchDoc | null, b: SearchDoc | null): boolean {
  if (a === null || b === null) return a === b;
  return a.key === b.key && a.terms === b.terms;
}
