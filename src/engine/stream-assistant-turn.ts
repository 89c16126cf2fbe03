import { buildRequest } from './build-request.ts';
import { STREAM_WRITE_INTERVAL_MS } from './engine-context.ts';
import type { EngineContext } from './engine-context-type.ts';
import type { IdPort, ModelPort } from './ports.ts';
import type { AssistantMessage, Conversation, ConversationState, Message, ToolCall } from './records/index.ts';

export interface TurnStart {
  /** The conversation as this step read it. */
  conversation: Conversation;
  /** Written with the new assistant message, in its transaction. */
  state: ConversationState;
  /** Written with the final message when the answer calls no tools (the run ends there), in its transaction. */
  stateWhenAnswered: ConversationState;
}

/**
 * One model call: the assistant message is stored before the first token and
 * its text is written as it streams (at most every STREAM_WRITE_INTERVAL_MS),
 * so a tab that dies mid-stream leaves its partial text behind. On failure the
 * partial text is kept and marked interrupted; the caller decides on retries.
 *
 * Once the message is final (complete or interrupted) it is never written
 * again, not even by a late `onText`: the history cache keeps final messages.
 */
export async function streamAssistantTurn(
  ctx: EngineContext,
  model: ModelPort,
  { conversation, state, stateWhenAnswered }: TurnStart,
  history: readonly Message[],
  signal: AbortSignal,
): Promise<AssistantMessage> {
  const { storage, clock, ids } = ctx;
  const conversationId = conversation.id;
  // `turns` only moves here, under the conversation's lock, so the count this step read is current.
  const [stored] = await storage.appendMessages(
    conversationId,
    [
      {
        v: 1,
        id: ids.uuid(),
        conversationId,
        createdAt: clock.now(),
        role: 'assistant',
        content: '',
        toolCalls: [],
        turnIndex: conversation.turns,
        status: 'streaming',
      },
    ],
    (c) => ({ ...c, turns: c.turns + 1, state, updatedAt: Math.max(c.updatedAt, clock.now()) }),
  );
  let message = stored as AssistantMessage;

  let text = '';
  let streaming = true;
  let lastWrite = clock.now();
  let writing: Promise<void> = Promise.resolve();
  const onText = (delta: string) => {
    if (!streaming) return;
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
    streaming = false;
    await writing;
    message = { ...message, content: result.content || text, toolCalls: uniqueCallIds(result.toolCalls, history, ctx.ids), status: 'complete' };
    const answered = message.toolCalls.length === 0;
    await storage.putMessage(message, answered ? (c) => ({ ...c, state: stateWhenAnswered, updatedAt: Math.max(c.updatedAt, clock.now()) }) : undefined);
    return message;
  } catch (error) {
    streaming = false;
    // A failed snapshot write does not matter: the final write below replaces it.
    await writing.catch(() => undefined);
    await storage.putMessage({ ...message, content: text, status: 'interrupted' });
    throw error;
  }
}

/**
 * Tool call ids key pause points and the execution ledger, so they must be
 * unique within a conversation. Some compatible endpoints reuse ids across
 * turns (`call_0` every time); a reused id would let a new call inherit an old
 * call's approval or its "already ran" ledger entry. Such ids are replaced
 * before anything is stored, and the model sees the replacements from then on.
 */
export function uniqueCallIds(calls: readonly ToolCall[], history: readonly Message[], ids: IdPort): ToolCall[] {
  const used = new Set<string>();
  for (const m of history) if (m.role === 'assistant') for (const call of m.toolCalls) used.add(call.id);
  return calls.map((call) => {
    const id = call.id && !used.has(call.id) ? call.id : `call_${ids.uuid()}`;
    used.add(id);
    return id === call.id ? call : { ...call, id };
  });
}
