import OpenAI from 'openai';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { ModelError } from '../engine/errors.ts';
import type { ModelPort, ModelRequest, ModelResult } from '../engine/model-port.ts';
import type { CallUsage } from '../engine/records/index.ts';
import { StallWatchdog } from './stall-watchdog.ts';
import { refusesStreamOptions, streamOptionsRefusals, type StreamOptionsRefusals } from './stream-options-refusals.ts';
import { toModelError, type ModelErrorContext } from './to-model-error.ts';
import { ToolCallAssembler } from './tool-call-assembler.ts';

export interface OpenAIModelOptions {
  /** The endpoint, e.g. https://api.openai.com/v1. The API key is sent here and nowhere else. */
  baseUrl: string;
  apiKey: string;
  model: string;
  /** Replaces the global fetch (tests, the offline demo model). */
  fetch?: typeof fetch;
  /** How long to wait for the response to start, and then for each next piece of it. */
  timeoutMs?: number;
  /** The most tokens one answer may use; sent with every completion request when given. */
  maxTokens?: number;
  /**
   * The request field that carries `maxTokens`. `max_tokens` is what compatible
   * endpoints read; OpenAI itself has deprecated it for `max_completion_tokens`
   * and refuses it for its reasoning models.
   */
  maxTokensField?: MaxTokensField;
  /** Sent with every request besides the key (a provider's required header, say). */
  headers?: Readonly<Record<string, string>>;
  /** Which endpoints refused `stream_options`; the worker's shared memory unless given (tests). */
  refusals?: StreamOptionsRefusals;
}

export type MaxTokensField = 'max_tokens' | 'max_completion_tokens';

export const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * The model port over the official openai SDK, speaking streamed Chat
 * Completions: the dialect OpenAI and every compatible endpoint (OpenRouter,
 * Ollama, LM Studio, gateways) understand. Every failure leaves as a `ModelError`.
 */
export class OpenAIModel implements ModelPort {
  readonly #client: OpenAI;
  readonly #model: string;
  readonly #timeoutMs: number;
  readonly #maxTokens: number | undefined;
  readonly #maxTokensField: MaxTokensField;
  readonly #baseUrl: string;
  readonly #refusals: StreamOptionsRefusals;

  constructor(options: OpenAIModelOptions) {
    this.#model = options.model;
    this.#baseUrl = options.baseUrl;
    this.#refusals = options.refusals ?? streamOptionsRefusals;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#maxTokens = options.maxTokens;
    this.#maxTokensField = options.maxTokensField ?? 'max_tokens';
    this.#client = new OpenAI({
      baseURL: options.baseUrl,
      apiKey: options.apiKey,
      // The key is the user's own, typed into this browser; there is no server of ours to hide it behind.
      dangerouslyAllowBrowser: true,
      // The engine retries, visibly (a "retrying" state the user sees): SDK retries would be silent.
      maxRetries: 0,
      timeout: this.#timeoutMs,
      fetch: options.fetch,
      // Not from the environment: outside a browser the SDK would read OPENAI_ORG_ID and friends.
      organization: null,
      project: null,
      ...(options.headers ? { defaultHeaders: { ...options.headers } } : {}),
    });
  }

  async complete({ messages, tools, signal, onText, maxTokens }: ModelRequest): Promise<ModelResult> {
    const watchdog = new StallWatchdog(this.#timeoutMs);
    const context: ModelErrorContext = { signal, timeoutMs: this.#timeoutMs };
    const limit = maxTokens === undefined ? this.#maxTokens : Math.min(maxTokens, this.#maxTokens ?? maxTokens);
    const tokenLimit = limit === undefined ? {} : { [this.#maxTokensField]: limit };

    const open = (askUsage: boolean) =>
      this.#client.chat.completions.create(
        {
          model: this.#model,
          messages,
          stream: true,
          ...(askUsage ? { stream_options: { include_usage: true } } : {}),
          ...tokenLimit,
          ...(tools.length > 0 ? { tools } : {}),
        },
        { signal: AbortSignal.any([signal, watchdog.signal]) },
      );
    const askUsage = !this.#refusals.refuses(this.#baseUrl);
    const stream = await open(askUsage)
      .catch((error: unknown) => {
        // Asked once more without it, silently, and never again for this endpoint: usage is a nicety, the answer is not.
        if (!askUsage || !(error instanceof OpenAI.APIError) || !refusesStreamOptions(error.status, error.message)) throw error;
        this.#refusals.remember(this.#baseUrl);
        return open(false);
      })
      .catch((error: unknown) => {
        throw toModelError(error, context);
      });

    let content = '';
    let usage: CallUsage | undefined;
    let finishReason: string | null = null;
    const toolCalls = new ToolCallAssembler();
    watchdog.reset();
    try {
      for await (const chunk of chunksOf(stream, { ...context, streaming: true })) {
        watchdog.reset();
        // Usually a trailing chunk without choices; some endpoints put it on the last choice chunk.
        if (chunk.usage) usage = callUsage(chunk.usage, chunk.model || this.#model);
        const choice = chunk.choices[0];
        if (!choice) continue;
        const text = choice.delta?.content;
        if (text) {
          content += text;
          onText(text);
        }
        for (const delta of choice.delta?.tool_calls ?? []) toolCalls.add(delta);
        if (choice.finish_reason) finishReason = choice.finish_reason;
      }
    } catch (error) {
      // Errors thrown by onText are the caller's own (storage, say): they pass through untouched.
      if (!(error instanceof ModelError)) throw error;
      // A finished answer whose connection broke before the closing [DONE] is still a finished answer.
      const finishedBeforeBreak = error.kind === 'dropped' && finishReason !== null && !watchdog.fired;
      if (!finishedBeforeBreak) throw this.#whyEnded(signal, watchdog, error);
    } finally {
      watchdog.stop();
    }

    if (finishReason === null) throw this.#whyEnded(signal, watchdog);
    return { content, toolCalls: toolCalls.toolCalls(), finishReason, ...(usage ? { usage } : {}) };
  }

  /** The model ids the endpoint offers; for the setup screen's "Test connection". */
  async listModels(signal?: AbortSignal): Promise<string[]> {
    try {
      const page = await this.#client.models.list({ signal });
      // Compatible endpoints vary: keep only entries that really carry an id.
      return page.data.map((model) => model.id).filter((id): id is string => typeof id === 'string' && id !== '');
    } catch (error) {
      throw toModelError(error, { signal, timeoutMs: this.#timeoutMs });
    }
  }

  /**
   * Why a stream ended without a finish reason. The SDK ends iteration quietly
   * when its request is aborted, so the signals are the only witnesses.
   */
  #whyEnded(signal: AbortSignal, watchdog: StallWatchdog, error?: ModelError): ModelError {
    if (signal.aborted) return new ModelError('aborted', 'Stopped before the endpoint finished answering.');
    if (watchdog.fired) {
      return new ModelError(
        'timeout',
        `The endpoint stopped sending for ${watchdog.ms / 1000} s in the middle of the answer. The partial answer is kept; try again for a complete one.`,
      );
    }
    return (
      error ??
      new ModelError(
        'dropped',
        'The answer stopped before the endpoint said it was complete (the connection may have dropped). The partial answer is kept; try again for a complete one.',
      )
    );
  }
}

/** The endpoint's usage report in the stored shape; fields it left out count as zero. */
function callUsage(usage: NonNullable<ChatCompletionChunk['usage']>, model: string): CallUsage {
  const count = (n: unknown) => (typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : 0);
  return {
    model,
    prompt: count(usage.prompt_tokens),
    completion: count(usage.completion_tokens),
    cached: count(usage.prompt_tokens_details?.cached_tokens),
    reasoning: count(usage.completion_tokens_details?.reasoning_tokens),
  };
}

/** The stream's chunks, with failures while reading translated here and nowhere else. */
async function* chunksOf(stream: AsyncIterable<ChatCompletionChunk>, context: ModelErrorContext): AsyncGenerator<ChatCompletionChunk> {
  try {
    yield* stream;
  } catch (error) {
    throw toModelError(error, context);
  }
}
