import type { ConversationState, Message } from '../../engine/records/index.ts';

/**
 * Whether the model has been asked and nothing of its answer is stored yet:
 * the engine stores an answer with its first text, so until then the list
 * shows that the agent is thinking. That is when the conversation is running
 * and the newest message is not an answer still streaming or one whose tool
 * calls are still being settled.
 */
export function awaitingAnswer(messages: readonly Message[], state: ConversationState | undefined): boolean {
  if (state?.kind !== 'running') return false;
  const answered = new Set<string>();
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role === 'tool') {
      answered.add(message.toolCallId);
      continue;
    }
    if (message.role === 'notice') continue;
    if (message.role !== 'assistant') return true;
    if (message.status === 'streaming') return false;
    // A broken answer is asked for again while the conversation runs.
    if (message.status === 'interrupted') return true;
    return message.toolCalls.length > 0 && message.toolCalls.every((call) => answered.has(call.id));
  }
  return true;
}
