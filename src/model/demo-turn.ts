import { z } from 'zod';
import { unwrapToolResult } from '../engine/tool-result-envelope.ts';

/**
 * What the demo model reads from a Chat Completions request body: only what
 * its script reacts to. Parsed with zod like any other boundary, leniently,
 * because the body is the openai SDK's and may carry fields we do not use.
 */
const RequestMessage = z.object({
  role: z.string(),
  content: z
    .union([z.string(), z.array(z.object({ type: z.string(), text: z.string().optional() })), z.null()])
    .optional(),
  tool_call_id: z.string().optional(),
  tool_calls: z.array(z.object({ id: z.string(), function: z.object({ name: z.string() }) })).optional(),
});
type RequestMessage = z.infer<typeof RequestMessage>;

export const DemoRequestBody = z.object({
  model: z.string(),
  messages: z.array(RequestMessage),
  stream: z.boolean().optional(),
  tools: z.array(z.object({ function: z.object({ name: z.string() }) })).optional(),
});
export type DemoRequestBody = z.infer<typeof DemoRequestBody>;

/** The conversation's latest event, which the script answers. */
export type DemoTurn = (
  | { kind: 'user'; text: string }
  /**
   * The synthetic `Approval <kind>: <resolution>` message a decision writes,
   * with the result of the gated call it decided, when that call has run: the
   * engine places tool results before the decision message.
   */
  | { kind: 'decision'; text: string; toolResult?: { toolName: string; content: string } }
  | { kind: 'tool_result'; toolName: string; content: string }
) & {
  /** The latest message the person typed (not a decision): what a tool result is an answer to. */
  userText: string;
  /** Tools the request offers; the script only calls these. */
  tools: ReadonlySet<string>;
};

const DECISION = /^Approval [\w-]+:/;

export function demoTurn(body: DemoRequestBody): DemoTurn {
  const { messages } = body;
  const tools = new Set((body.tools ?? []).map((tool) => tool.function.name));
  const typed = messages.findLast((m) => m.role === 'user' && !DECISION.test(textOf(m)));
  const userText = typed ? textOf(typed) : '';
  const last = messages.at(-1);

  if (last?.role === 'tool') {
    return { kind: 'tool_result', toolName: toolNameOf(messages, last.tool_call_id), content: unwrapToolResult(textOf(last)), userText, tools };
  }
  if (last?.role === 'user' && DECISION.test(textOf(last))) {
    return { kind: 'decision', text: textOf(last), toolResult: gatedResult(messages), userText, tools };
  }
  return { kind: 'user', text: last?.role === 'user' ? textOf(last) : userText, userText, tools };
}

/** The latest result of a gated tool call, if it is part of the exchange being answered. */
function gatedResult(messages: readonly RequestMessage[]): { toolName: string; content: string } | undefined {
  for (let i = messages.length - 2; i >= 0; i--) {
    const message = messages[i];
    if (!message || message.role === 'assistant' || (message.role === 'user' && !DECISION.test(textOf(message)))) return undefined;
    if (message.role !== 'tool') continue;
    const toolName = toolNameOf(messages, message.tool_call_id);
    // wait_for_approval's own result is only the pause marker; the decision says it all.
    if (toolName !== 'wait_for_approval') return { toolName, content: unwrapToolResult(textOf(message)) };
  }
  return undefined;
}

function textOf(message: RequestMessage): string {
  const { content } = message;
  if (typeof content === 'string') return content;
  if (!content) return '';
  return content.map((part) => part.text ?? '').join('');
}

/** Which tool a result answers: the assistant message that made the call knows its name. */
function toolNameOf(messages: readonly RequestMessage[], callId: string | undefined): string {
  for (const message of messages) {
    const call = message.tool_calls?.find((c) => c.id === callId);
    if (call) return call.function.name;
  }
  return 'unknown';
}
