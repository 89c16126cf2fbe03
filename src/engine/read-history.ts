import type { AssistantMessage, Message, ToolCall } from './records/index.ts';

/*
 * What the loop asks of a conversation's stored history to decide its next
 * move. Each looks back from the newest message and stops as soon as it knows.
 */

/** The newest finished answer of the model (a call a view proposed is none: call-from-view.ts settles it). */
export function lastAssistant(history: readonly Message[]): AssistantMessage | undefined {
  for (let i = history.length - 1; i >= 0; i--) {
    const message = history[i];
    if (message?.role === 'assistant' && message.status === 'complete' && !message.fromView) return message;
  }
  return undefined;
}

/** The calls of `message` that no tool result answers yet. */
export function openCalls(message: AssistantMessage, history: readonly Message[]): ToolCall[] {
  if (message.toolCalls.length === 0) return [];
  const answered = new Set<string>();
  for (let i = history.length - 1; i >= 0 && history[i] !== message; i--) {
    const m = history[i];
    if (m?.role === 'tool') answered.add(m.toolCallId);
  }
  return message.toolCalls.filter((call) => !answered.has(call.id));
}

/**
 * The model has something to answer when the last thing that counts is not its own finished answer.
 * What a view's call wrote (`fromView`) does not count: its result goes back to the app, not to the model.
 */
export function needsModel(history: readonly Message[]): boolean {
  for (let i = history.length - 1; i >= 0; i--) {
    const message = history[i];
    if (!message || message.role === 'notice' || message.fromView) continue;
    if (message.role === 'assistant') {
      if (message.status === 'interrupted') return true;
      return message.toolCalls.length > 0;
    }
    return true;
  }
  return false;
}
