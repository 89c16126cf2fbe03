import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { ModelError } from '../engine/errors.ts';
import { retryAfterMs } from './retry-after-ms.ts';

export interface ModelErrorContext {
  /** The caller's signal: once it has fired, whatever the SDK threw is the caller's own stop. */
  signal?: AbortSignal;
  /** True once the response stream has started: failures from then on are dropped streams. */
  streaming?: boolean;
  /** For the timeout message. */
  timeoutMs?: number;
}

/** Longest piece of an endpoint's own error text we repeat; gateways sometimes answer with whole HTML pages. */
const MAX_DETAIL = 300;

/**
 * Translates whatever the openai SDK (or the fetch under it) threw into a
 * `ModelError` whose message tells the user what to do. The engine decides on
 * retries from `kind` alone, so the kind must be right even when the message is vague.
 */
export function toModelError(error: unknown, context: ModelErrorContext = {}): ModelError {
  if (error instanceof ModelError) return error;
  if (context.signal?.aborted || error instanceof APIUserAbortError) {
    return new ModelError('aborted', 'Stopped before the endpoint finished answering.');
  }
  // The timeout class extends the connection class: test it first.
  if (error instanceof APIConnectionTimeoutError) {
    const after = context.timeoutMs === undefined ? '' : ` within ${formatSeconds(context.timeoutMs)}`;
    return new ModelError(
      'timeout',
      `The endpoint did not answer${after}. It may be slow, overloaded or unreachable; try again, or check the base URL in Settings.`,
    );
  }
  if (error instanceof APIConnectionError) {
    return new ModelError(
      'network',
      'Could not reach the endpoint. Check the base URL and your connection. The endpoint may be unreachable, ' +
        'or refusing cross-origin requests (CORS) from this page: local servers such as Ollama or LM Studio need CORS enabled.',
    );
  }
  if (error instanceof APIError && typeof error.status === 'number') return fromStatus(error, error.status);

  // Anything else reached us while reading an answer that had already started:
  // undici's "terminated", a browser's "network error", malformed SSE, or an
  // error event the endpoint sent mid-stream (an APIError without a status).
  if (context.streaming) {
    return new ModelError(
      'dropped',
      `The connection to the endpoint broke in the middle of the answer (${detailOf(error)}). The partial answer is kept; try again for a complete one.`,
    );
  }
  return new ModelError('network', `Could not talk to the endpoint (${detailOf(error)}). Check the base URL in Settings.`);
}

function fromStatus(error: APIError, status: number): ModelError {
  const detail = detailOf(error);
  if (status === 401) {
    return new ModelError('auth', 'The endpoint refused the API key (401). Check the key in Settings.', status);
  }
  if (status === 403) {
    return new ModelError(
      'auth',
      `The endpoint refused access (403): ${detail}. Check that the key may use this model, or change it in Settings.`,
      status,
    );
  }
  if (status === 429 && error.code === 'insufficient_quota') {
    // OpenAI's "no credit left" is a 429 too, but waiting never fixes it: not retryable.
    return new ModelError(
      'auth',
      `The endpoint says this account has no quota left (429): ${detail}. Check the plan and billing for this key, or use another key in Settings.`,
      status,
    );
  }
  if (status === 429) {
    return new ModelError(
      'rate_limit',
      `The endpoint is rate-limiting requests (429): ${detail}. Wait a moment and try again; if it keeps happening, check your plan's limits.`,
      status,
      retryAfterMs(error.headers),
    );
  }
  if (status === 408) {
    return new ModelError('timeout', `The endpoint gave up on the request (408): ${detail}. Try again.`, status);
  }
  if (status >= 500 || status === 409) {
    return new ModelError(
      'server',
      `The endpoint had a server error (${status}): ${detail}. This is usually temporary; try again in a moment.`,
      status,
      retryAfterMs(error.headers),
    );
  }
  const hint =
    status === 404
      ? 'Check the base URL and the model name in Settings.'
      : 'Check the model name in Settings; some models do not support tools.';
  return new ModelError('bad_request', `The endpoint rejected the request (${status}): ${detail}. ${hint}`, status);
}

/** The endpoint's own words when it sent any, else the error's message; one line, bounded. */
function detailOf(error: unknown): string {
  let text: string;
  if (error instanceof APIError) {
    const body: unknown = error.error;
    const bodyMessage = typeof body === 'object' && body !== null && 'message' in body ? body.message : undefined;
    // Without a JSON body the SDK's message is "<status> <raw text>"; drop the repeated status.
    text = typeof bodyMessage === 'string' ? bodyMessage : error.message.replace(/^\d{3} /, '');
  } else if (error instanceof Error) {
    text = error.message;
  } else {
    text = String(error);
  }
  const line = text.replace(/\s+/g, ' ').trim().replace(/\.$/, '') || 'no details given';
  return line.length > MAX_DETAIL ? `${line.slice(0, MAX_DETAIL)}…` : line;
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
