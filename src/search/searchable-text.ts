import type { Message, PausePoint } from '../engine/records/index.ts';

/**
 * The text of a message that search finds: what the person wrote, the
 * answer's text and the calls it made (a URL, a note's title), a tool's
 * result. Notices (step limit, an interruption) are the app's own lines, not
 * the conversation's, and are left out.
 */
export function messageText(message: Message): string {
  switch (message.role) {
    case 'user':
    case 'tool':
      return message.content;
    case 'assistant':
      return [message.content, ...message.toolCalls.map((call) => `${call.name} ${call.arguments}`)].join('\n');
    case 'notice':
      return '';
  }
}

/** The text of a card: its title, description, options, the values of its payload, and a reply given with the decision. */
export function cardText(card: PausePoint): string {
  const parts = [card.title, card.description, ...(card.options ?? [])];
  collectValues(card.payload, parts, 0);
  if (card.reason) parts.push(card.reason);
  return parts.join('\n');
}

/** Strings and numbers of a JSON value (keys are the form's names, not what it says); bounded in depth. */
function collectValues(value: unknown, into: string[], depth: number): void {
  if (depth > 8 || value === null || value === undefined) return;
  if (typeof value === 'string') into.push(value);
  else if (typeof value === 'number') into.push(String(value));
  else if (Array.isArray(value)) for (const item of value) collectValues(item, into, depth + 1);
  else if (typeof value === 'object') for (const item of Object.values(value)) collectValues(item, into, depth + 1);
}
