import type { ToolCallJson } from './completion-shapes.ts';
import { randomId } from './random-id.ts';
import type { MessageReply, ScriptedTokens } from './reply.ts';

/** A message reply with its defaults applied, shared by the streamed and the plain answer. */
export interface ResolvedMessage {
  content: string | undefined;
  toolCalls: ToolCallJson[];
  finishReason: string;
  tokens: ScriptedTokens | undefined;
}

export function resolveMessage(reply: MessageReply): ResolvedMessage {
  const toolCalls = (reply.toolCalls ?? []).map(
    (call): ToolCallJson => ({
      id: call.id ?? randomId('call_'),
      type: 'function',
      function: {
        name: call.name,
        arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
      },
    }),
  );
  return {
    content: reply.content,
    toolCalls,
    finishReason: reply.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
    tokens: reply.tokens,
  };
}
