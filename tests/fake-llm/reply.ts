/**
 * What the fake server answers to one POST /v1/chat/completions.
 *
 * `fault` is the discriminant: a reply without it is an ordinary assistant message,
 * streamed or not depending on the request's own `stream` flag, so one script works
 * for both kinds of client.
 */
export type Reply = MessageReply | StatusFault | DropFault | HangFault | SlowHeadersFault;

/** A tool call the scripted assistant makes. */
export interface ScriptedToolCall {
  /** Defaults to `call_<random>`, like OpenAI's ids. */
  id?: string;
  name: string;
  /** An object is JSON.stringified; a string is sent verbatim, so malformed JSON can be scripted too. */
  arguments: string | object;
}

export interface MessageReply {
  fault?: undefined;
  content?: string;
  /** Several calls become parallel tool calls with indices 0, 1, 2… */
  toolCalls?: ScriptedToolCall[];
  /** Defaults to `tool_calls` when there are tool calls, else `stop`. */
  finishReason?: string;
  /** Characters per streamed content (and tool-argument) delta. Default 8. */
  chunkSize?: number;
  /** Pause before each streamed chunk after the first — a slow stream. Default 0. */
  chunkDelayMs?: number;
  /**
   * Include a token-usage estimate. Non-streaming replies carry usage unless this is false;
   * streaming replies add OpenAI's trailing usage chunk when this is true or the request
   * asked for it with `stream_options.include_usage`.
   */
  usage?: boolean;
  /** Exactly the usage to report (instead of the estimate), wherever usage is reported. */
  tokens?: ScriptedTokens;
}

export interface ScriptedTokens {
  prompt: number;
  completion: number;
  /** Reported as `prompt_tokens_details.cached_tokens`. */
  cached?: number;
  /** Reported as `completion_tokens_details.reasoning_tokens`. */
  reasoning?: number;
}

/** An HTTP error with OpenAI's error body. */
export interface StatusFault {
  fault: 'status';
  status: number;
  /** Seconds; sent as the `retry-after` header, which the SDK honours between retries. */
  retryAfter?: number;
  message?: string;
}

/** Starts answering, then destroys the socket mid-message without `[DONE]`. */
export interface DropFault {
  fault: 'drop';
  content?: string;
  /** Content chunks sent before the drop (after the role chunk). Default 2. */
  afterChunks?: number;
}

/** Reads the request and never answers; the socket stays open until the client gives up or `close()`. */
export interface HangFault {
  fault: 'hang';
}

/** Waits before sending anything, then answers with `then`. */
export interface SlowHeadersFault {
  fault: 'slow-headers';
  delayMs: number;
  then: Reply;
}
