import type { CreateMessageRequestParams } from '@modelcontextprotocol/sdk/types.js';
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

/** The card's account of the request: every message as literal text (the server's words, never markdown), and the token cap it asks for. */
export function samplingDescription(serverLine: string, params: CreateMessageRequestParams): string {
  const parts = [serverLine];
  if (params.systemPrompt) parts.push('**System prompt** (from the server):', codeBlock(params.systemPrompt));
  params.messages.forEach((message, index) => parts.push(`**Message ${index + 1}, as ${message.role}:**`, codeBlock(blockText(message.content))));
  parts.push(
    `**Max tokens** (the server asks for at most): ${params.maxTokens}`,
    'If you approve, this is sent once to your configured model (it counts toward its usage) and the answer goes back to this server. **Decline** to refuse.',
  );
  return parts.join('\n\n');
}
