import { z } from 'zod';

/**
 * The most characters a set of custom instructions may hold (Settings' own, or
 * a conversation's). They go with every model call, so they cost tokens on
 * each: long enough for a page of standing instructions, short enough that a
 * pasted document does not silently eat every answer's budget.
 */
export const MAX_INSTRUCTIONS_CHARS = 8_000;

/** What the user asks of the model in their own words: sent after the app's system prompt, never instead of it. */
export const Instructions = z.string().max(MAX_INSTRUCTIONS_CHARS, { message: `At most ${MAX_INSTRUCTIONS_CHARS.toLocaleString('en')} characters.` });
