import type { Message, PausePoint } from '../engine/records/index.ts';
import type { ConversationFile } from './conversation-file-format.ts';
import { codeFence } from '../engine/code-fence.ts';
import { currentPath } from '../engine/versions/current-path.ts';

/**
 * A conversation as Markdown (Export as Markdown), for reading and pasting
 * elsewhere, not for importing back (Export as JSON is for that). Each message
 * under a heading naming who wrote it; the person's and the model's text as
 * they wrote it (both are Markdown already); tool calls, tool results and
 * anything a tool or server wrote in code fences longer than any run of
 * backticks inside, so their text cannot turn into Markdown of its own; and
 * each card after the call it was about, with what was decided. Of a
 * conversation with versions, the one shown (the JSON export keeps them all),
 * with its own cards: a card of a call in another version is left out.
 */
export function conversationMarkdown(file: ConversationFile): string {
  const { conversation } = file;
  const messages = currentPath(file.messages, conversation.versions);
  const pausePoints = conversation.versions ? cardsOf(file.messages, messages, file.pausePoints) : file.pausePoints;
  const cardsByCall = new Map<string, PausePoint[]>();
  for (const card of pausePoints) cardsByCall.set(card.toolCallId, [...(cardsByCall.get(card.toolCallId) ?? []), card]);
  const shown = new Set<PausePoint>();

  const out: string[] = [`# ${oneLine(conversation.title) || 'Conversation'}`, '', `Exported from Pausepoint on ${file.exportedAt.slice(0, 10)}.`];
  if (conversation.versions) out.push('', '*This is the version shown in Pausepoint; Export as JSON keeps every version.*');
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

/** The cards of the calls in `shown`, and those tied to no call of any version (a spending limit's). */
function cardsOf(all: readonly Message[], shown: readonly Message[], cards: readonly PausePoint[]): PausePoint[] {
  const callsIn = (messages: readonly Message[]) => new Set(messages.flatMap((m) => (m.role === 'assistant' ? m.toolCalls.map((call) => call.id) : [])));
  const anywhere = callsIn(all);
  const here = callsIn(shown);
  return cards.filter((card) => here.has(card.toolCallId) || !anywhere.has(card.toolCallId));
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
