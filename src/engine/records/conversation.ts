import { z } from 'zod';
import { ACTIVE_STATES } from './active-states.ts';
import { ModelTotals, SampledUsage } from './usage.ts';
import { Versions } from './versions.ts';

/**
 * The stored state machine every tab renders. Only the tab whose worker holds
 * the conversation's lock moves it out of `running`, `retrying` or
 * `waiting_for_network`; a conversation found in one of those with no lock
 * holder was orphaned by a closed tab and is recovered.
 */
export const ConversationState = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('idle') }),
  z.object({ kind: z.literal('running'), owner: z.string(), since: z.number() }),
  z.object({ kind: z.literal('paused'), pending: z.number().int().nonnegative() }),
  z.object({
    kind: z.literal('retrying'),
    owner: z.string(),
    attempt: z.number().int().positive(),
    retryAt: z.number(),
    reason: z.string(),
  }),
  z.object({ kind: z.literal('waiting_for_network'), owner: z.string(), since: z.number() }),
  z.object({
    kind: z.literal('error'),
    code: z.enum(['auth', 'bad_request', 'rate_limit', 'server', 'network', 'step_limit', 'interrupted', 'stopped', 'storage', 'internal']),
    message: z.string(),
    /** Whether Retry (or Continue) can make progress without the user changing anything. */
    retryable: z.boolean(),
    /**
     * A request the endpoint refused (`bad_request`) that carried files: the person's messages
     * on the version shown whose files went with it. Each shows the error, and Edit offers to
     * make a version of it without a file (an image too large for that endpoint, say), since
     * every later request would carry the file again.
     */
    withFiles: z.array(z.string()).max(1_000).optional(),
  }),
]);
export type ConversationState = z.infer<typeof ConversationState>;

/**
 * The most characters a set of custom instructions may hold (Settings' own, or
 * a conversation's). They go with every model call, so they cost tokens on
 * each: long enough for a page of standing instructions, short enough that a
 * pasted document does not silently eat every answer's budget.
 */
export const MAX_INSTRUCTIONS_CHARS = 8_000;

/** What the user asks of the model in their own words: sent after the app's system prompt, never instead of it. */
export const Instructions = z.string().max(MAX_INSTRUCTIONS_CHARS, { message: `At most ${MAX_INSTRUCTIONS_CHARS.toLocaleString('en')} characters.` });

export { ACTIVE_STATES };
export function isActive(state: ConversationState): boolean {
  return (ACTIVE_STATES as readonly string[]).includes(state.kind);
}

/**
 * Where a conversation runs: the device that started it, which holds the API
 * key (src/sync). Other devices show it, decide its cards and may stop it; only
 * its owner runs its loop. Absent on a conversation made before sync was on,
 * which runs where it is.
 */
export const OwnerDevice = z.object({ id: z.string(), name: z.string() });
export type OwnerDevice = z.infer<typeof OwnerDevice>;

export const Conversation = z.object({
  v: z.literal(1),
  id: z.string(),
  title: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  state: ConversationState,
  /** Model calls made so far; the next assistant message gets this as its turn index. */
  turns: z.number().int().nonnegative(),
  /** Next message sequence number: messages are ordered by it, never by time. */
  nextSeq: z.number().int().nonnegative(),
  /** Tokens used so far, per model (see usage.ts); absent before the first reported call. */
  usage: z.array(ModelTotals).optional(),
  /** The MCP sampling calls made for it (their tokens are in `usage` too); absent before the first. */
  sampled: z.array(SampledUsage).optional(),
  ownerDevice: OwnerDevice.optional(),
  /**
   * The user's instructions for this conversation alone, sent on its every model
   * call after the app's system prompt and Settings' custom instructions.
   * Optional: a conversation without them is stored (and synced) as before.
   */
  instructions: Instructions.optional(),
  /**
   * True when `instructions` came from a file (an import or a backup,
   * src/inert/) and the person has not turned them on: shown in the
   * conversation's options, never sent. Saving the instructions turns them on.
   */
  instructionsOff: z.literal(true).optional(),
  /** Its versions (Edit, Regenerate): absent until the first, and the conversation is stored as before. */
  versions: Versions.optional(),
});
export type Conversation = z.infer<typeof Conversation>;
