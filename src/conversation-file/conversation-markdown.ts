import type { Message, PausePoint } from '../engine/records/index.ts';
import type { ConversationFile } from './conversation-file-format.ts';
import { codeFence } from '../engine/code-fence.ts';

/**
 * A conversation as Markdown (Export as Markdown), for reading and pasting
 * elsewhere, not for importing back (Export as JSON is for that). Each message
 * under a heading naming who wrote it; the person's and the model's text as
 * they wrote it (both are Markdown already); tool calls, tool results and
 * anything a tool or server wrote in code fences longer than any run of
 * backticks inside, so their text cannot turn into Markdown of its own; and
 * each card after the call it was about, with what was decided.
 */
export function conversationMarkdown(file: ConversationFile): string {
  const { conversation, messages, pausePoints } = file;
  const cardsByCall = new Map<string, PausePoint[]>();
  for (const card of pausePoints) cardsByCall.set(card.toolCallId, [...(cardsByCall.get(card.toolCallId) ?? []), card]);
  const shown = new Set<PausePoint>();

  const out: string[] = [`# ${oneLine(conversation.title) || 'Conversation'}`, '', `Exported from Pausepoint on ${file.exportedAt.slice(0, 10)}.`];
  if (conversation.instructions) out.push('', '**Instructions for this conversation:**', '', quote(conversation.instructions));
  for (const message of messages) {
    out.push('', ...messageBlock(message));
    if (message.role !== 'assistant') continue;
    for (const call of message.toolCalls) {
      for (const card of cardsByCall.get(call.id) ?? []) {
        shown.add(card);
        out.push('', ...cardBlock(card));
      }
    }
  }
  const others = pausePoints.filter((card) => !shown.has(card));
  if (others.length > 0) {
    out.push('', '## Other approvals');
    for (const card of others) out.push('', ...cardBlock(card));
  }
  return `${out.join('\n')}\n`;
}

function messageBlock(message: Message): string[] {
  switch (message.role) {
    case 'user':
      return [message.decision ? '## You (decision)' : '## You', '', message.content];
    case 'assistant': {
      const lines = ['## Assistant'];
      if (message.content) lines.push('', message.content);
      if (message.status === 'interrupted') lines.push('', '*(interrupted)*');
      for (const call of message.toolCalls) lines.push('', `Tool call \`${oneLine(call.name)}\`:`, '', codeFence(prettyArguments(call.arguments), 'json'));
      return lines;
    }
    case 'tool':
      return [`## Tool result: \`${oneLine(message.toolName)}\` (${message.outcome})`, '', codeFence(message.content)];
    case 'notice':
      return [quote(message.content)];
  }
}

function cardBlock(card: PausePoint): string[] {
  const lines = [`### Approval card: ${oneLine(card.title)} — ${statusText(card)}`, '', codeFence(card.description, 'markdown')];
  if (card.reason) lines.push('', `Reason: ${oneLine(card.reason)}`);
  return lines;
}

function statusText(card: PausePoint): string {
  if (card.status === 'pending') return 'pending';
  if (card.status === 'expired') return `expired${card.expiredReason ? ` (${card.expiredReason})` : ''}`;
  return `decided: ${typeof card.resolution === 'string' ? oneLine(card.resolution) : JSON.stringify(card.resolution)}`;
}

function prettyArguments(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch (error) {
    // The model's arguments may be malformed: shown as it wrote them.
    if (error instanceof SyntaxError) return text;
    throw error;
  }
}

function quote(text: string): string {
  return text
    .split('\n')
    .map((line) => (line ? `> ${line}` : '>'))
    .join('\n');
}

/** For headings and inline text: line breaks would end the heading and start Markdown of their own. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
