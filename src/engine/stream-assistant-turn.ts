import { buildRequest } from './build-request.ts';
import { STREAM_WRITE_INTERVAL_MS } from './engine-context.ts';
import type { EngineContext } from './engine-context-type.ts';
import type { ModelPort } from './ports.ts';
import type { AssistantMessage, Message } from './records/index.ts';

/**
 * One model call: the assistant message is stored before the first token and
 * its text is written as it streams (at most every STREAM_WRITE_INTERVAL_MS),
 * so a tab that dies mid-stream leaves its partial text behind. On failure the
 * partial text is kept and marked interrupted; the caller decides on retries.
 */
export async function streamAssistantTurn(
  ctx: EngineContext,
  model: ModelPort,
  conversationId: string,
  history: readonly Message[],
  signal: AbortSignal,
): Promise<AssistantMessage> {
  const { storage, clock, ids } = ctx;
  const conversation = await storage.updateConversation(conversationId, (c) => ({ ...c, turns: c.turns + 1 }));
  const [stored] = await storage.appendMessages(conversationId, [
    {
      v: 1,
      id: ids.uuid(),
      conversationId,
      createdAt: clock.now(),
      role: 'assistant',
      content: '',
      toolCalls: [],
      turnIndex: conversation.turns - 1,
      status: 'streaming',
    },
  ]);
  let message = stored as AssistantMessage;

  let text = '';
  let lastWrite = clock.now();
  let writing: Promise<void> = Promise.resolve();
  const onText = (delta: string) => {
    text += delta;
    const now = clock.now();
    if (now - lastWrite < STREAM_WRITE_INTERVAL_MS) return;
    lastWrite = now;
    const snapshot: AssistantMessage = { ...message, content: text };
    // Writes are chained so an older snapshot never lands after a newer one.
    writing = writing.then(() => storage.putMessage(snapshot));
  };

  try {
    const result = await model.complete({ messages: buildRequest(history), tools: ctx.tools.specs, signal, onText });
    await writing;
    message = { ...message, content: result.content || text, toolCalls: result.toolCalls, status: 'complete' };
    await storage.putMessage(message);
    return message;
  } catch (error) {
    // A failed snapshot write does not matter: the final write below replaces it.
    await writing.catch(() => undefined);
    await storage.putMessage({ ...message, content: text, status: 'interrupted' });
    throw error;
  }
}
