import { buildChatCompletion } from './build-chat-completion.ts';
import { buildCompletionChunks, DEFAULT_CHUNK_SIZE } from './build-completion-chunks.ts';
import { completionContext } from './completion-context.ts';
import type { MessageReply } from './reply.ts';
import type { ReplyTarget } from './reply-target.ts';
import { resolveMessage } from './resolved-message.ts';
import { sendJson } from './send-json.ts';
import { sleep } from './sleep.ts';
import { SseWriter } from './sse-writer.ts';

/** Answers with an assistant message: SSE when the request asked to stream, one JSON object otherwise. */
export async function writeMessage({ res, request, signal }: ReplyTarget, reply: MessageReply): Promise<void> {
  const ctx = completionContext(request);
  const message = resolveMessage(reply);
  if (!request.stream) {
    sendJson(res, 200, buildChatCompletion(ctx, message, reply.usage !== false));
    return;
  }

  const withUsage = reply.usage === true || (reply.usage !== false && request.stream_options?.include_usage === true);
  const chunks = buildCompletionChunks(ctx, message, { chunkSize: reply.chunkSize ?? DEFAULT_CHUNK_SIZE, withUsage });
  const writer = new SseWriter(res);
  for (const [i, chunk] of chunks.entries()) {
    if (i > 0 && !(await sleep(reply.chunkDelayMs ?? 0, signal))) return;
    if (!writer.open) return;
    await writer.data(chunk);
  }
  await writer.done();
}
