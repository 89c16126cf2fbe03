import { z } from 'zod';

const Tokens = z.number().int().nonnegative();

/**
 * What one model call used, as the endpoint reported it, with the model id it
 * reported (or the one asked for). `cached` is the part of `prompt` the
 * endpoint read from its cache; `reasoning` the part of `completion` spent
 * thinking. Stored on the assistant message the call wrote.
 */
export const CallUsage = z.object({
  model: z.string(),
  prompt: Tokens,
  completion: Tokens,
  cached: Tokens,
  reasoning: Tokens,
});
export type CallUsage = z.infer<typeof CallUsage>;

/**
 * A conversation's running totals for one model: kept on the conversation and
 * moved in the transaction that stores each call's answer, so its header and
 * the spending check read one record instead of every message.
 */
export const ModelTotals = CallUsage.extend({ calls: z.number().int().positive() });
export type ModelTotals = z.infer<typeof ModelTotals>;

/**
 * One MCP sampling call's usage (a server's `sampling/createMessage` the user
 * approved, sent to their model): spent like an answer's, but it writes no
 * message, so it is kept on its conversation with when it was made — what the
 * spending check and the day's totals add to the answers' usage.
 */
export const SampledUsage = z.object({ at: z.number(), usage: CallUsage });
export type SampledUsage = z.infer<typeof SampledUsage>;

/** The totals with one more call added (per model, in the order models were first used). */
export function addUsage(totals: readonly ModelTotals[] | undefined, usage: CallUsage): ModelTotals[] {
  const list = [...(totals ?? [])];
  const at = list.findIndex((t) => t.model === usage.model);
  const before = at === -1 ? { model: usage.model, prompt: 0, completion: 0, cached: 0, reasoning: 0, calls: 0 } : list[at]!;
  const after: ModelTotals = {
    model: usage.model,
    prompt: before.prompt + usage.prompt,
    completion: before.completion + usage.completion,
    cached: before.cached + usage.cached,
    reasoning: before.reasoning + usage.reasoning,
    calls: before.calls + 1,
  };
  if (at === -1) list.push(after);
  else list[at] = after;
  return list;
}

/** Prompt plus completion tokens: what a token limit counts. */
export function totalTokens(usage: readonly Pick<CallUsage, 'prompt' | 'completion'>[]): number {
  return usage.reduce((sum, u) => sum + u.prompt + u.completion, 0);
}
