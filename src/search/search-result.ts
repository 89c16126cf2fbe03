import { z } from 'zod';

export const SearchSource = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('title') }),
  /** A message of the conversation; a tool's result is a message too (its call's row shows it). */
  z.object({ kind: z.literal('message'), messageId: z.string() }),
  z.object({ kind: z.literal('card'), pausePointId: z.string() }),
]);

export const Snippet = z.object({
  text: z.string(),
  /** `[start, end)` offsets into `text` of each match, in order. */
  marks: z.array(z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()])),
  cutBefore: z.boolean(),
  cutAfter: z.boolean(),
});

/** One conversation found: its title and time now, where the match is, and the snippet around it. */
export const SearchResult = z.object({
  conversationId: z.string(),
  title: z.string(),
  updatedAt: z.number(),
  source: SearchSource,
  snippet: Snippet,
});
export type SearchResult = z.infer<typeof SearchResult>;

/** What the worker answers to `searchConversations`: the first results, newest first, and how many matched. */
export const SearchResults = z.object({ results: z.array(SearchResult), total: z.number().int().nonnegative() });
export type SearchResults = z.infer<typeof SearchResults>;
