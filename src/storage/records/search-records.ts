import { z } from 'zod';

/**
 * The stored search index: derived from conversations, messages and cards,
 * shared by every tab, never backed up, exported or synced (it is rebuilt
 * from the records whenever its format changes).
 *
 * A document is one message or card. Documents are grouped in blocks: the
 * messages of a conversation with `seq` in `[part × 64, part × 64 + 64)`, or
 * its cards 64 at a time in creation order (negative parts). A posting names
 * a document as `block id × 64 + its place in the block`, so one number
 * finds the conversation (through the block) and the exact message.
 */
export const SEARCH_FORMAT = 2;
export const BLOCK_SIZE = 64;

/**
 * A shard of term rows (src/search/term-shards.ts): `term` is its key, the least term
 * it may hold; `terms` the terms it holds, ascending and joined by spaces;
 * `ends[i]` where the postings of its `i`th term end in `postings`, each
 * term's in ascending order.
 */
export const SearchShardRow = z.object({
  term: z.string(),
  terms: z.string(),
  ends: z.custom<Uint32Array>((value) => value instanceof Uint32Array),
  postings: z.custom<Uint32Array>((value) => value instanceof Uint32Array),
});
export type SearchShardRow = z.infer<typeof SearchShardRow>;

/**
 * A document of a block: the message's or card's id and its terms (unique,
 * joined by spaces: a term never holds one, and one string clones far faster
 * than an array of them), which the next update diffs against.
 */
export const SearchDoc = z.object({ key: z.string(), terms: z.string() });
export type SearchDoc = z.infer<typeof SearchDoc>;

/** A block: its conversation, its part, and its documents by place (null: none there, or no words in it). */
export const SearchBlockRow = z.object({
  id: z.number().int().positive(),
  conversationId: z.string(),
  part: z.number().int(),
  docs: z.array(SearchDoc.nullable()).max(BLOCK_SIZE),
});
export type SearchBlockRow = z.infer<typeof SearchBlockRow>;

/**
 * What the index holds of one conversation: its blocks by part, and the
 * conversation's `updatedAt` when all of it was last indexed (-1: never
 * wholly, only documents as they were written), which a tab compares on
 * first use to find conversations written while no tab was indexing.
 */
export const SearchCoveredRow = z.object({
  conversationId: z.string(),
  updatedAt: z.number(),
  blocks: z.array(z.tuple([z.number().int(), z.number().int().positive()])),
});
export type SearchCoveredRow = z.infer<typeof SearchCoveredRow>;

/**
 * The index as a whole: its format (another means a rebuild), whether its
 * build finished, the next block id, and a generation that each build
 * moves, so a tab holding maps of the last one reloads them.
 */
export const SearchStateRow = z.object({
  key: z.literal('index'),
  format: z.number().int(),
  complete: z.boolean(),
  nextBlock: z.number().int().positive(),
  generation: z.string(),
});
export type SearchStateRow = z.infer<typeof SearchStateRow>;
