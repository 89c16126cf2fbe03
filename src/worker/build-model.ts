import { createDemoModel } from '../model/demo-model.ts';
import { OpenAIModel } from '../model/openai-model.ts';
import { presetHeaders } from '../model/provider-presets.ts';
import { endpointOrigin } from '../storage/endpoint-origin.ts';
import { DEFAULT_MAX_TOKENS } from '../storage/settings-constants.ts';
import type { Endpoint } from './model-from-settings.ts';

/** The endpoint whose Chat Completions wants `max_completion_tokens` (its reasoning models refuse `max_tokens`). */
const OPENAI_ORIGIN = 'https://api.openai.com';

/**
 * A new model port for an endpoint: the scripted demo, or the endpoint
 * through the openai SDK. The one module of the worker that brings the SDK
 * (about 60 % of the worker's code): model-from-settings.ts loads it on demand.
 */
export function buildModel(endpoint: Endpoint): OpenAIModel {
  if (endpoint.provider === 'demo') return createDemoModel();
  // Local endpoints (Ollama, LM Studio) take no key, but the SDK refuses to start without one.
  const apiKey = endpoint.apiKey.trim() || 'no-key';
  return new OpenAIModel({
    baseUrl: endpoint.baseUrl,
    apiKey,
    model: endpoint.model ?? '',
    maxTokens: endpoint.maxTokens ?? DEFAULT_MAX_TOKENS,
    maxTokensField: endpointOrigin(endpoint.baseUrl) === OPENAI_ORIGIN ? 'max_completion_tokens' : 'max_tokens',
    headers: requestHeaders(endpoint),
  });
}

/**
 * One streamed completion through the adapter and the SDK, answered in this
 * thread by the demo model's fetch: V8 compiles each function on its first
 * call, and a new worker's first real request would otherwise compile the
 * SDK's request building and stream parsing on its way out (about 16 ms of
 * CPU after a reload, bench:latency's b′). Nothing leaves the worker, and no
 * key but the demo's placeholder is in it.
 */
export async function rehearseCompletion(): Promise<void> {
  await createDemoModel({ chunkDelayMs: 0 }).complete({
    messages: [{ role: 'user', content: 'warm-up' }],
    tools: [{ type: 'function', function: { name: 'warm_up', description: 'Not a tool.', parameters: { type: 'object', properties: {} } } }],
    signal: AbortSignal.timeout(10_000),
    onText: () => {},
  });
}

/**
 * The preset's fixed headers and the user's own for this endpoint's origin.
 * The preset's win: its header is what the provider requires of a browser.
 */
export function requestHeaders(endpoint: Endpoint): Record<string, string> {
  const custom = Object.fromEntries((endpoint.headers ?? []).map(({ name, value }) => [name, value]));
  return { ...custom, ...presetHeaders(endpoint.provider) };
}
