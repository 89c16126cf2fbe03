import type { CallUsage, ToolCall } from './records/index.ts';

/** A part of a user message with attachments: its text, a file's text, an image as a data: URL. */
export type ContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

/** The Chat Completions message dialect every compatible endpoint speaks. */
export type ModelMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | ContentPart[] }
  | {
      role: 'assistant';
      content: string | null;
      tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
    }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface ToolSpec {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface ModelRequest {
  messages: ModelMessage[];
  tools: ToolSpec[];
  signal: AbortSignal;
  /** Called with each piece of text as it streams in. */
  onText: (delta: string) => void;
  /**
   * At most this many tokens for this one answer (an MCP server's sampling
   * request asks for a cap). It can only lower the endpoint's own limit, the
   * user's setting: the smaller of the two applies.
   */
  maxTokens?: number;
}

export interface ModelResult {
  content: string;
  toolCalls: ToolCall[];
  finishReason: string;
  /** What the call used, when the endpoint reported it. */
  usage?: CallUsage;
}

/** Adapters throw `ModelError` (src/engine/errors.ts) for every endpoint failure. */
export interface ModelPort {
  complete(request: ModelRequest): Promise<ModelResult>;
}
