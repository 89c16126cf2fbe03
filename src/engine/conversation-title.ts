/** What a conversation is called until its first message names it. */
export const NEW_TITLE = 'New chat';

/** A title from the first message: its first line, cut to 60 characters. */
export function titleFrom(text: string): string {
  const line = text.trim().split('\n', 1)[0] ?? '';
  return line.length > 60 ? `${line.slice(0, 57)}…` : line || NEW_TITLE;
}
