import type { CompletionContext } from './completion-context.ts';
import type { ChatCompletionChunkJson, ChunkDelta, ToolCallDeltaJson } from './completion-shapes.ts';
import { estimateUsage } from './estimate-usage.ts';
import type { ResolvedMessage } from './resolved-message.ts';
import { splitText } from './split-text.ts';

export const DEFAULT_CHUNK_SIZE = 8;

/**
 * The streamed answer, chunk by chunk, in OpenAI's order: a role chunk, content deltas,
 * each tool call as a head chunk (index, id, type, name, first piece of arguments)
 * followed by argument-only chunks, a finish chunk, and optionally a usage chunk with
 * no choices. Splitting the arguments is the point: client code that parses
 * arguments before the call is complete breaks here, not in production.
 */
export function buildCompletionChunks(
  ctx: CompletionContext,
  message: ResolvedMessage,
  options: { chunkSize: number; withUsage: boolean },
): ChatCompletionChunkJson[] {
  const chunk = (delta: ChunkDelta, finishReason: string | null = null): ChatCompletionChunkJson => ({
    id: ctx.id,
    object: 'chat.completion.chunk',
    created: ctx.created,
    model: ctx.model,
    system_fingerprint: 'fp_fake_llm',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  });

  const chunks: ChatCompletionChunkJson[] = [];
  const hasContent = message.content !== undefined || message.toolCalls.length === 0;
  chunks.push(chunk({ role: 'assistant', content: hasContent ? '' : null, refusal: null }));
  for (const piece of splitText(message.content ?? '', options.chunkSize)) chunks.push(chunk({ content: piece }));

  message.toolCalls.forEach((call, index) => {
    const [first = '', ...rest] = splitText(call.function.arguments, options.chunkSize);
    const head: ToolCallDeltaJson = {
      index,
      id: call.id,
      type: 'function',
      function: { name: call.function.name, arguments: first },
    };
    chunks.push(chunk({ tool_calls: [head] }));
    for (const piece of rest) chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });

  chunks.push(chunk({}, message.finishReason));
  if (options.withUsage) {
    chunks.push({ ...chunk({}), choices: [], usage: estimateUsage(ctx.request, message) });
  }
  return chunks;
}
