/**
 * The JSON the fake sends, typed after OpenAI's wire format. Declared here rather than
 * imported from `openai` so the server stays free of dependencies.
 */
export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens: number };
  completion_tokens_details?: { reasoning_tokens: number };
}

export interface ToolCallJson {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface ChatCompletionJson {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  system_fingerprint: string;
  choices: Array<{
    index: 0;
    message: { role: 'assistant'; content: string | null; refusal: null; tool_calls?: ToolCallJson[] };
    logprobs: null;
    finish_reason: string;
  }>;
  usage?: Usage;
}

export interface ToolCallDeltaJson {
  index: number;
  id?: string;
  type?: 'function';
  function: { name?: string; arguments: string };
}

export interface ChunkDelta {
  role?: 'assistant';
  content?: string | null;
  refusal?: null;
  tool_calls?: ToolCallDeltaJson[];
}

export interface ChatCompletionChunkJson {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  system_fingerprint: string;
  choices: Array<{ index: 0; delta: ChunkDelta; logprobs: null; finish_reason: string | null }>;
  usage?: Usage | null;
}
