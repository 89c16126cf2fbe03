import { z } from 'zod';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { ViewCallOutcome } from '../engine/call-from-view.ts';

/**
 * MCP Apps (issue 36, point 3): a `tools/call` a view sends. The bridge never
 * calls a server itself; it hands the call to the worker
 * (`WorkerClient.callToolFromView`), which puts it through the engine like a
 * model's call: rules, the risk label, a card when one is due, the ledger, the
 * audit log. This is the contract between the bridge (view) and the gate.
 */
export const ViewToolCall = z.object({
  conversationId: z.string().min(1).max(200),
  /** The call row whose view asked: its tool's server is the only one the view may call (SEP-1865: "from this server only"). */
  viewCallId: z.string().min(1).max(200),
  serverId: z.string().min(1).max(200),
  /** The tool's name as the server lists it (not the engine's prefixed name). */
  name: z.string().min(1).max(200),
  arguments: z.record(z.string(), z.unknown()),
});
export type ViewToolCall = z.infer<typeof ViewToolCall>;

/**
 * The MCP result as the server gave it. Checked here only for its shape (a
 * content array, the optional structured content and error flag, the rest kept
 * as sent): the worker's SDK client already validated it against
 * `CallToolResultSchema`, and importing the SDK's schemas would pull them into
 * the worker's start (protocol.ts imports this file).
 */
const ToolResult = z
  .object({
    content: z.array(z.object({ type: z.string() }).loose()),
    structuredContent: z.record(z.string(), z.unknown()).optional(),
    isError: z.boolean().optional(),
  })
  .loose()
  .transform((result) => result as CallToolResult);

export const ViewToolCallAnswer = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('ran'), result: ToolResult }),
  /** A person (on the card) or a rule declined. */
  z.object({ outcome: z.literal('declined'), reason: z.string().max(2_000) }),
  /** Never offered to apps (model-only, another server's tool), an unknown server or call row, or arguments the tool refuses. */
  z.object({ outcome: z.literal('refused'), reason: z.string().max(2_000) }),
]);
export type ViewToolCallAnswer = { outcome: 'ran'; result: CallToolResult } | { outcome: 'declined'; reason: string } | { outcome: 'refused'; reason: string };

/**
 * The view's answer to the engine's outcome: the server's own result when it
 * was kept (call-from-view.ts), else the text result the engine stored, as
 * one text block (`isError` for a call that failed).
 */
export function answerForView(outcome: ViewCallOutcome): ViewToolCallAnswer {
  if (outcome.outcome !== 'ran') return outcome;
  const kept = outcome.result === null ? undefined : ViewToolCallAnswer.safeParse({ outcome: 'ran', result: parseJson(outcome.result) });
  if (kept?.success) return kept.data;
  return { outcome: 'ran', result: { content: [{ type: 'text', text: outcome.text }], ...(outcome.isError ? { isError: true } : {}) } };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
