import type { CreateMessageRequestParams } from '@modelcontextprotocol/client';
import type { ModelMessage } from '../engine/model-port.ts';
import { codeBlock } from './markdown-literal.ts';

type Block = CreateMessageRequestParams['messages'][number]['content'];

/** One content block (or a list of them) as text: only text is sent; anything else is named, not passed on. */
function blockText(content: Block): string {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks.map((block) => (block.type === 'text' ? block.text : `[${block.type} content, not sent]`)).join('\n');
}

/**
 * A server's `sampling/createMessage` as the messages the user's model gets:
 * its system prompt (if any), then its user and assistant turns as text.
 */
export function samplingMessages(params: CreateMessageRequestParams): ModelMessage[] {
  const messages: ModelMessage[] = params.systemPrompt ? [{ role: 'system', content: params.systemPrompt }] : [];
  for (const message of params.messages) {
    const content = blockText(message.content);
    messages.push(message.role === 'assistant' ? { role: 'assistant', content } : { role: 'user', content });
  }
  return messages;
}

/**
 * The card's account of the request: every message as literal text (the
 * server's words, never markdown), the token cap it asks for, and — when
 * sending it would pass one of the user's spending limits — which and by how
 * much (`limitWarning`): approving the card is then the decision to pass it.
 */
export function samplingDescription(serverLine: string, params: CreateMessageRequestParams, limitWarning: string | null = null): string {
  const parts = [serverLine];
  if (params.systemPrompt) parts.push('**System prompt** (from the server):', codeBlock(params.systemPrompt));
  params.messages.forEach((message, index) => parts.push(`**Message ${index + 1}, as ${message.role}:**`, codeBlock(blockText(message.content))));
  parts.push(`**Max tokens** (the server asks for at most): ${params.maxTokens}`);
  if (limitWarning) parts.push(limitWarning);
  parts.push(
    'If you approve, this is sent once to your configured model (it counts toward this conversation’s usage and your limits) and the answer — at most that long, or your own Max tokens per answer if lower — goes back to this server. **Decline** to refuse.',
  );
  return parts.join('\n\n');
}

/** The cap a sampling call is sent with: the server's, or the user's own Max tokens per answer if lower. */
export function samplingCap(serverMaxTokens: number, userMaxTokens: number): number {
  return Math.min(serverMaxTokens, userMaxTokens);
}

/** The estimate the spending limits use before any count: about four characters a token. */
const CHARS_PER_TOKEN = 4;

/** A sampling request's prompt tokens, estimated as the limits estimate a first prompt (spending.ts). */
export function estimateSamplingTokens(messages: readonly ModelMessage[]): number {
  return Math.ceil(messages.reduce((sum, m) => sum + (typeof m.content === 'string' ? m.content.length : 0), 0) / CHARS_PER_TOKEN);
}

/**
 * The answer a server gets, held to the cap it was sent with even when the
 * endpoint ignored it: past the cap by the endpoint's own count of its answer,
 * the text is cut to the cap's share of it; with no count, at four characters
 * a token — unless the endpoint said it stopped at the cap itself (`length`).
 * Cut on code points, so no character is split.
 */
export function capAnswer(text: string, answer: { completionTokens?: number | undefined; finishReason: string }, cap: number): { text: string; cut: boolean } {
  const chars = [...text];
  const { completionTokens, finishReason } = answer;
  let keep: number;
  if (completionTokens !== undefined) keep = completionTokens > cap ? Math.floor((chars.length * cap) / completionTokens) : chars.length;
  else keep = finishReason === 'length' ? chars.length : Math.min(chars.length, cap * CHARS_PER_TOKEN);
  return keep < chars.length ? { text: chars.slice(0, keep).join(''), cut: true } : { text, cut: false };
}
