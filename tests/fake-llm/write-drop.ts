import { buildChatCompletion } from './build-chat-completion.ts';
import { buildCompletionChunks, DEFAULT_CHUNK_SIZE } from './build-completion-chunks.ts';
import { completionContext } from './completion-context.ts';
import type { DropFault } from './reply.ts';
import type { ReplyTarget } from './reply-target.ts';
import { resolveMessage } from './resolved-message.ts';
import { SseWriter } from './sse-writer.ts';

const DEFAULT_CONTENT = 'This reply is cut off in the middle of a sentence and never';
const DEFAULT_AFTER_CHUNKS = 2;

/**
 * Sends the start of an answer, then destroys the socket. The response is chunked
 * (no content-length), so the client sees a transfer that ends mid-message — the
 * same thing a network drop or a crashed upstream looks like — and never `[DONE]`.
 */
export async function writeDrop({ res, request }: ReplyTarget, fault: DropFault): Promise<void> {
  const ctx = completionContext(request);
  const message = resolveMessage({ content: fault.content ?? DEFAULT_CONTENT });

  if (request.stream) {
    const chunks = buildCompletionChunks(ctx, message, { chunkSize: DEFAULT_CHUNK_SIZE, withUsage: false });
    const writer = new SseWriter(res);
    // +1: the role chunk comes before the content chunks being counted.
    for (const chunk of chunks.slice(0, 1 + (fault.afterChunks ?? DEFAULT_AFTER_CHUNKS))) {
      await writer.data(chunk);
    }
  } else {
    const text = JSON.stringify(buildChatCompletion(ctx, message, true));
    res.writeHead(200, { 'content-type': 'application/json' });
    await new Promise<void>((resolve) => res.write(text.slice(0, Math.floor(text.length / 2)), () => resolve()));
  }
  res.destroy();
}
