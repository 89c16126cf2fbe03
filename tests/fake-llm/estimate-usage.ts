import type { ChatRequestBody } from './chat-request-body.ts';
import type { Usage } from './completion-shapes.ts';
import type { ResolvedMessage } from './resolved-message.ts';

/**
 * A rough token count (4 characters a token). Only its presence and plausibility matter:
 * the app may show or sum it, nobody bills it.
 */
export function estimateUsage(request: ChatRequestBody, message: ResolvedMessage): Usage {
  if (message.tokens) {
    const { prompt, completion, cached = 0, reasoning = 0 } = message.tokens;
    return {
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: prompt + completion,
      prompt_tokens_details: { cached_tokens: cached },
      completion_tokens_details: { reasoning_tokens: reasoning },
    };
  }
  const prompt = tokens(JSON.stringify(request.messages));
  const output =
    tokens(message.content ?? '') +
    message.toolCalls.reduce((sum, call) => sum + tokens(call.function.name + call.function.arguments), 0);
  return { prompt_tokens: prompt, completion_tokens: output, total_tokens: prompt + output };
}

function tokens(text: string): number {
  return Math.ceil(text.length / 4);
}
