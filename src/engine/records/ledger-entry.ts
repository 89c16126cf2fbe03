import { z } from 'zod';

/**
 * The execution ledger: written before a tool runs and again after, keyed by
 * conversation and tool call. A `started` entry that no live run owns means the
 * tab died mid-execution: the outcome is unknown and the user is asked.
 */
export const LedgerEntry = z.object({
  v: z.literal(1),
  /** `${conversationId}:${toolCallId}`: model call ids are only unique per conversation. */
  id: z.string(),
  conversationId: z.string(),
  toolCallId: z.string(),
  toolName: z.string(),
  /** The arguments the tool actually ran with (after any approved edit). */
  args: z.unknown(),
  status: z.enum(['started', 'succeeded', 'failed', 'unknown', 'skipped']),
  attempts: z.number().int().positive(),
  startedAt: z.number(),
  finishedAt: z.number().nullable(),
  result: z.string().nullable(),
});
export type LedgerEntry = z.infer<typeof LedgerEntry>;

export function ledgerId(conversationId: string, toolCallId: string): string {
  return `${conversationId}:${toolCallId}`;
}
