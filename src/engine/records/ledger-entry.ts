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
  /**
   * True on a `started` entry a backup brought here: another browser (or
   * whoever made the file) says the call was running, and nobody here saw it
   * approved or start. The engine never re-runs such an entry by itself, not
   * even a read that is safe to retry: it asks with a fresh gate card about the
   * entry's arguments (see restored-start.ts). An entry this browser writes carries no flag.
   */
  restored: z.boolean().optional(),
  /**
   * The server runs this call as a task (MCP's Tasks extension): its id there,
   * written the moment the server answered with it and before the call goes
   * on. A `started` entry with a task is not an unknown outcome after a crash:
   * its tool reads the outcome back from the server (`ToolDefinition.followTask`).
   */
  task: z.object({ id: z.string().min(1).max(500) }).optional(),
});
export type LedgerEntry = z.infer<typeof LedgerEntry>;

export function ledgerId(conversationId: string, toolCallId: string): string {
  return `${conversationId}:${toolCallId}`;
}
