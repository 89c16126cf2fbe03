import type { CompletionContext } from './completion-context.ts';
import type { ChatCompletionJson } from './completion-shapes.ts';
import { estimateUsage } from './estimate-usage.ts';
import type { ResolvedMessage } from './resolved-message.ts';

/** The non-streaming answer: one `chat.completion` object. */
export function buildChatCompletion(
  ctx: CompletionContext,
  message: ResolvedMessage,
  withUsage: boolean,
): ChatCompletionJson {
  const hasTools = message.toolCalls.length > 0;
  return {
    id: ctx.id,
    object: 'chat.completion',
    created: ctx.created,
    model: ctx.model,
    system_fingerprint: 'fp_fake_llm',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          // OpenAI sends null content on a tool-call-only message, '' never.
          content: message.content ?? (hasTools ? null : ''),
          refusal: null,
          ...(hasTools ? { tool_calls: message.toolCalls } : {}),
        },
        logprobs: null,
        finish_reason: message.finishReason,
      },
    ],
    ...(withUsage ? { usage: estimateUsage(ctx.request, message) } : {}),
  };
}
