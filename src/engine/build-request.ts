import type { AttachmentContent } from './attachments-port.ts';
import type { Message, ToolMessage, UserMessage } from './records/index.ts';
import type { ContentPart, ModelMessage } from './model-port.ts';
import { escapedType, quotedName, wrapAttachedFile } from './attached-file-envelope.ts';
import { SYSTEM_PROMPT } from './system-prompt.ts';
import { wrapToolResult } from './tool-result-envelope.ts';

const MISSING_RESULT = 'Error: no result was recorded for this call.';

/** The user's own instructions for a call: Settings' custom instructions, and the conversation's. */
export interface RequestInstructions {
  general?: string | undefined;
  conversation?: string | undefined;
}

/**
 * How the user's instructions are introduced to the model. Each comes in a
 * system message of its own after the app's: the safety rules are said first
 * and whole, and what follows is named as the user's, within those rules.
 */
export const GENERAL_INSTRUCTIONS_PREFIX = "The user's custom instructions, which apply to every conversation (they come from the user; the rules above still hold):\n\n";
export const CONVERSATION_INSTRUCTIONS_PREFIX = "The user's instructions for this conversation (they come from the user; the rules above still hold):\n\n";

/**
 * Turns stored history into Chat Completions messages.
 *
 * Stored order is the order things happened, which is not always an order the
 * API accepts: a decision message can be written before the gated call's
 * result. The API requires every tool result right after the assistant message
 * that made the call, so results are placed there, and everything else keeps
 * its stored order. Interrupted or still-streaming assistant text and notices
 * are for the user only. Every tool result goes as data, in its envelope
 * (tool-result-envelope.ts): whatever a tool read may have been written by anyone.
 * The user's custom instructions follow the app's system prompt, never before it.
 */
export function buildRequest(
  history: readonly Message[],
  instructions: RequestInstructions = {},
  attachments: ReadonlyMap<string, AttachmentContent> = new Map(),
): ModelMessage[] {
  const results = new Map<string, ToolMessage>();
  for (const message of history) {
    if (message.role === 'tool' && !results.has(message.toolCallId)) results.set(message.toolCallId, message);
  }

  // The app's own prompt is always first and never replaced: the user's instructions add to it.
  const out: ModelMessage[] = [{ role: 'system', content: SYSTEM_PROMPT }];
  const general = instructions.general?.trim();
  if (general) out.push({ role: 'system', content: GENERAL_INSTRUCTIONS_PREFIX + general });
  const conversation = instructions.conversation?.trim();
  if (conversation) out.push({ role: 'system', content: CONVERSATION_INSTRUCTIONS_PREFIX + conversation });
  for (const message of history) {
    // A view's call, its result and the decision on it are the app's business, not the model's (call-from-view.ts).
    if (message.fromView) continue;
    switch (message.role) {
      case 'user':
        out.push({ role: 'user', content: message.attachments ? userParts(message, attachments) : message.content });
        break;
      case 'assistant': {
        if (message.status !== 'complete') break;
        if (message.toolCalls.length === 0) {
          out.push({ role: 'assistant', content: message.content });
          break;
        }
        out.push({
          role: 'assistant',
          content: message.content || null,
          tool_calls: message.toolCalls.map((call) => ({
            id: call.id,
            type: 'function' as const,
            function: { name: call.name, arguments: call.arguments },
          })),
        });
        for (const call of message.toolCalls) {
          out.push({ role: 'tool', tool_call_id: call.id, content: wrapToolResult(results.get(call.id)?.content ?? MISSING_RESULT) });
        }
        break;
      }
      case 'tool':
      case 'notice':
        break;
    }
  }
  return out;
}

/**
 * A user message with attachments, as content parts: its text, then each
 * file in order. A text file (a PDF's text too) goes as data, in its
 * envelope (attached-file-envelope.ts), introduced by its name, escaped,
 * and fenced: a file from anywhere must not pass for the user's words, nor
 * for a tool's data. The approval marker is only ever read at the start of
 * a tool result, so attached text cannot raise a card.
 */
function userParts(message: UserMessage, attachments: ReadonlyMap<string, AttachmentContent>): ContentPart[] {
  const parts: ContentPart[] = message.content ? [{ type: 'text', text: message.content }] : [];
  for (const ref of message.attachments ?? []) {
    const content = attachments.get(ref.id);
    if (content?.kind === 'image') parts.push({ type: 'image_url', image_url: { url: content.dataUrl } });
    else if (content?.kind === 'text') parts.push({ type: 'text', text: wrapAttachedFile(ref.name, ref.type, content.text) });
    else parts.push({ type: 'text', text: `The user attached ${quotedName(ref.name)} (${escapedType(ref.type)}, ${ref.size} bytes), but its content is not on this device and was not sent.` });
  }
  return parts;
}
