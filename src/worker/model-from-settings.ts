import { ModelError } from '../engine/errors.ts';
import type { ModelPort } from '../engine/ports.ts';
import { createDemoModel } from '../model/demo-model.ts';
import { OpenAIModel } from '../model/openai-model.ts';
import { presetHeaders } from '../model/provider-presets.ts';
import { endpointOrigin } from '../storage/endpoint-origin.ts';
import { DEFAULT_MAX_TOKENS } from '../storage/settings-constants.ts';
import type { Settings } from '../storage/settings-repo.ts';

export interface Endpoint {
  provider: string;
  baseUrl: string;
  apiKey: string;
  model?: string;
  maxTokens?: number;
}

/** The endpoint whose Chat Completions wants `max_completion_tokens` (its reasoning models refuse `max_tokens`). */
const OPENAI_ORIGIN = 'https://api.openai.com';

/**
 * The last model built, and the endpoint it was built for. The engine asks for
 * the model before every call, reading the settings afresh; building the SDK
 * client each time costs about half a millisecond once warm (and more in a new
 * worker), on the way from a press to the request. A model holds no state
 * between calls — each `complete` makes its own watchdog — so the same one
 * serves until any field of the endpoint changes. (The SDK takes the global
 * `fetch` when a client is built: a test that replaces it must use an
 * endpoint no earlier test used.)
 */
let last: { key: string; model: OpenAIModel } | undefined;

/** The model port for the user's settings: the scripted demo, or their endpoint through the openai SDK. */
export function modelFor(endpoint: Endpoint): OpenAIModel {
  const key = JSON.stringify([endpoint.provider, endpoint.baseUrl, endpoint.apiKey, endpoint.model ?? '', endpoint.maxTokens ?? DEFAULT_MAX_TOKENS]);
  if (last?.key === key) return last.model;
  last = { key, model: buildModel(endpoint) };
  return last.model;
}

function buildModel(endpoint: Endpoint): OpenAIModel {
  if (endpoint.provider === 'demo') return createDemoModel();
  // Local endpoints (Ollama, LM Studio) take no key, but the SDK refuses to start without one.
  const apiKey = endpoint.apiKey.trim() || 'no-key';
  return new OpenAIModel({
    baseUrl: endpoint.baseUrl,
    apiKey,
    model: endpoint.model ?? '',
    maxTokens: endpoint.maxTokens ?? DEFAULT_MAX_TOKENS,
    maxTokensField: endpointOrigin(endpoint.baseUrl) === OPENAI_ORIGIN ? 'max_completion_tokens' : 'max_tokens',
    headers: presetHeaders(endpoint.provider),
  });
}

export function modelFromSettings(settings: Settings | undefined): ModelPort {
  if (!settings) throw new ModelError('auth', 'No model is set up yet. Open Settings to choose a provider and model.');
  if (settings.provider !== 'demo' && !settings.model.trim()) {
    throw new ModelError('bad_request', 'No model is chosen. Open Settings and pick one (Test connection lists them).');
  }
  return modelFor(settings);
}
