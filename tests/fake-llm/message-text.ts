import type { ChatMessage } from './chat-request-body.ts';

/**
 * The text of a message whatever its content shape (string or text parts), so rules
 * can match on what the user said without caring how the app encoded it.
 */
export function messageText(message: ChatMessage | undefined): string {
  const content = message?.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: unknown) =>
      typeof part === 'object' && part !== null && 'text' in part && typeof part.text === 'string' ? part.text : '',
    )
    .join('');
}
