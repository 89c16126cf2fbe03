/** The body OpenAI sends with every non-2xx answer; the SDK reads `type` and `code` from it. */
export interface OpenAiErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

/**
 * Builds the error body for a status the way OpenAI labels it, so code that branches on
 * `err.code` / `err.type` behaves as it would against the real API.
 */
export function openAiError(status: number, message?: string): OpenAiErrorBody {
  const { type, code, text } = labelFor(status);
  return { error: { message: message ?? text, type, param: null, code } };
}

function labelFor(status: number): { type: string; code: string | null; text: string } {
  if (status === 401) {
    return { type: 'invalid_request_error', code: 'invalid_api_key', text: 'fake-llm: incorrect API key provided' };
  }
  if (status === 429) {
    // Real OpenAI uses type 'requests' or 'tokens' here; both fields say rate_limit_exceeded
    // so a check on either one matches.
    return { type: 'rate_limit_exceeded', code: 'rate_limit_exceeded', text: 'fake-llm: rate limit reached' };
  }
  if (status >= 500) {
    return { type: 'server_error', code: null, text: 'fake-llm: the server had an error while processing your request' };
  }
  return { type: 'invalid_request_error', code: null, text: `fake-llm: request failed with status ${status}` };
}
