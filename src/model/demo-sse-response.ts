import type { DemoReply } from './demo-script.ts';

export interface DemoStreamOptions {
  model: string;
  /** Pause between chunks, so the UI visibly streams. */
  chunkDelayMs: number;
  /** The request's signal: aborting it errors the stream, as a real fetch would. */
  signal?: AbortSignal | null;
}

/** Characters of text per chunk: small, so even short replies stream. */
const TEXT_CHUNK = 12;
const ARGUMENTS_CHUNK = 48;

/**
 * A `text/event-stream` Response carrying `reply` as Chat Completions chunks,
 * shaped exactly like OpenAI's: a role chunk, content pieces, each tool call
 * opened with its id and name and then its arguments in pieces, a finish
 * reason, and `[DONE]`. The openai SDK cannot tell it from a real endpoint.
 */
export function demoSseResponse(reply: DemoReply, options: DemoStreamOptions): Response {
  const chunks = [...completionChunks(reply, options.model)];
  const encoder = new TextEncoder();
  let next = 0;
  let cancelled = false;

  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (next > 0 && options.chunkDelayMs > 0) await sleep(options.chunkDelayMs);
      if (cancelled) return;
      if (options.signal?.aborted) {
        controller.error(options.signal.reason);
        return;
      }
      const chunk = chunks[next++];
      if (chunk === undefined) {
        controller.enqueue(encoder.encode('data: [DONE]\n\n'));
        controller.close();
        return;
      }
      controller.enqueue(encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`));
    },
    cancel() {
      cancelled = true;
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream; charset=utf-8' } });
}

function* completionChunks(reply: DemoReply, model: string): Generator<object> {
  const base = { id: `chatcmpl-demo-${randomHex()}`, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model };
  const chunk = (delta: object, finishReason: string | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  });

  yield chunk({ role: 'assistant', content: '' });
  for (const piece of pieces(reply.text ?? '', TEXT_CHUNK)) yield chunk({ content: piece });

  const calls = reply.toolCalls ?? [];
  for (const [index, call] of calls.entries()) {
    yield chunk({ tool_calls: [{ index, id: `call_demo_${randomHex()}`, type: 'function', function: { name: call.name, arguments: '' } }] });
    for (const piece of pieces(JSON.stringify(call.arguments), ARGUMENTS_CHUNK)) {
      yield chunk({ tool_calls: [{ index, function: { arguments: piece } }] });
    }
  }
  yield chunk({}, calls.length > 0 ? 'tool_calls' : 'stop');
}

/** By code points, so no piece ends in half an emoji. */
function* pieces(text: string, size: number): Generator<string> {
  const chars = Array.from(text);
  for (let at = 0; at < chars.length; at += size) yield chars.slice(at, at + size).join('');
}

/** Tool call ids must be unique within a conversation: the engine keys its ledger by them. */
function randomHex(): string {
  return crypto.randomUUID().replaceAll('-', '');
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
