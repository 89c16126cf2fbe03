import { isRecord } from './is-record.ts';

/**
 * The parts of a Chat Completions request body that scripts look at. Typed loosely on
 * purpose: the fake must accept whatever the app sends and let the test judge it.
 */
export interface ChatRequestBody {
  model: string;
  messages: ChatMessage[];
  tools?: unknown[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  [key: string]: unknown;
}

export interface ChatMessage {
  role: string;
  /** A string, an array of content parts, or null (assistant messages with tool calls). */
  content?: unknown;
  tool_calls?: unknown[] | null;
  tool_call_id?: string;
  [key: string]: unknown;
}

/**
 * Narrows an untrusted body to a chat request, or undefined when it is not one (the
 * server then answers 400 like OpenAI would). Fields the client did not send stay absent,
 * so the typed view says the same as the raw body in the request log.
 */
export function parseChatRequestBody(body: unknown): ChatRequestBody | undefined {
  if (!isRecord(body)) return undefined;
  const { model, messages, tools, stream, stream_options: streamOptions, ...rest } = body;
  if (!Array.isArray(messages) || !messages.every(isChatMessage)) return undefined;
  if (tools !== undefined && !Array.isArray(tools)) return undefined;
  if (stream !== undefined && typeof stream !== 'boolean') return undefined;
  if (streamOptions !== undefined && streamOptions !== null && !isRecord(streamOptions)) return undefined;
  return {
    ...rest,
    model: typeof model === 'string' ? model : '',
    messages,
    ...(tools === undefined ? {} : { tools }),
    ...(stream === undefined ? {} : { stream }),
    ...(isRecord(streamOptions) ? { stream_options: { include_usage: streamOptions['include_usage'] === true } } : {}),
  };
}

function isChatMessage(value: unknown): value is ChatMessage {
  if (!isRecord(value) || typeof value['role'] !== 'string') return false;
  const toolCalls = value['tool_calls'];
  const toolCallId = value['tool_call_id'];
  return (
    (toolCalls === undefined || toolCalls === null || Array.isArray(toolCalls)) &&
    (toolCallId === undefined || typeof toolCallId === 'string')
  );
}
