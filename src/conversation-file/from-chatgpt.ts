import type { Conversation, Message } from '../engine/records/index.ts';
import { contentText } from './chatgpt-content.ts';
import { currentBranch, type ChatGptConversation, type ChatGptMessage } from './chatgpt-export.ts';
import type { ImportedConversation } from './imported-conversation.ts';

const MAX_TITLE = 200;

/**
 * One ChatGPT conversation as Pausepoint records, or null when its tree is
 * broken. Its current branch only (see `currentBranch`), with fresh ids: the
 * export's ids are another service's. What each author's messages become:
 *
 * - the person's: their messages, image references as placeholders;
 * - the model's answers to the person: complete answers, with no tool calls
 *   (nothing ChatGPT's tools did can be run again here);
 * - everything else — the model's calls to ChatGPT's tools, what those tools
 *   returned (`tool`), and system messages the person could see (their custom
 *   instructions there, for one) — notices: shown, never sent to a model.
 *   A tool's output is data that anyone may have written, and a system
 *   message of another service is not this app's prompt.
 *
 * The conversation comes in idle: nothing in it runs until the person sends.
 */
export function fromChatGpt(source: ChatGptConversation, uuid: () => string): ImportedConversation | null {
  const branch = currentBranch(source);
  if (branch === null) return null;
  const id = uuid();
  const createdAt = millis(source.create_time) ?? 0;
  const messages: Message[] = [];
  let turns = 0;
  for (const item of branch) {
    const draft = messageOf(item);
    if (!draft) continue;
    const base = { v: 1 as const, id: uuid(), conversationId: id, seq: messages.length, createdAt: millis(item.create_time) ?? createdAt };
    if (draft.role === 'assistant') messages.push({ ...base, role: 'assistant', content: draft.content, toolCalls: [], turnIndex: turns++, status: 'complete' });
    else messages.push({ ...base, role: draft.role, content: draft.content });
  }
  const title = (source.title ?? '').replace(/\s+/g, ' ').trim().slice(0, MAX_TITLE) || 'Imported conversation';
  const updatedAt = Math.max(createdAt, millis(source.update_time) ?? 0, ...messages.map((m) => m.createdAt));
  const conversation: Conversation = { v: 1, id, title, createdAt, updatedAt, state: { kind: 'idle' }, turns, nextSeq: messages.length };
  return { conversation, messages, pausePoints: [] };
}

function messageOf(message: ChatGptMessage): { role: 'user' | 'assistant' | 'notice'; content: string } | null {
  const text = contentText(message.content).trim();
  if (!text) return null;
  const { role, name } = message.author;
  const toolName = name ? `\`${name}\`` : 'a tool';
  switch (role) {
    case 'user':
      return { role: 'user', content: text };
    case 'assistant':
      if (!message.recipient || message.recipient === 'all') return { role: 'assistant', content: text };
      return { role: 'notice', content: `The assistant called \`${message.recipient}\` (in ChatGPT):\n\n${text}` };
    case 'tool':
      return { role: 'notice', content: `${toolName} returned (in ChatGPT):\n\n${text}` };
    case 'system':
      if (message.metadata?.is_visually_hidden_from_conversation && message.content.content_type !== 'user_editable_context') return null;
      return { role: 'notice', content: `${message.content.content_type === 'user_editable_context' ? 'Custom instructions' : 'System message'} (in ChatGPT):\n\n${text}` };
    default:
      return { role: 'notice', content: `${role} (in ChatGPT):\n\n${text}` };
  }
}

/** ChatGPT's times are seconds since the epoch, with a fraction. */
function millis(seconds: number | null | undefined): number | undefined {
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0 ? Math.round(seconds * 1000) : undefined;
}
