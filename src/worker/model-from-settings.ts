import { ModelError } from '../engine/errors.ts';
import type { OpenAIModel } from '../model/openai-model.ts';
import type * as BuildModel from './build-model.ts';
import { DEFAULT_MAX_TOKENS } from '../storage/settings-constants.ts';
import type { CustomHeader } from '../storage/custom-headers.ts';
import type { Settings } from '../storage/settings-repo.ts';

export interface Endpoint {
  provider: string;
  baseUrl: string;
  apiKey: string;
  model?: string;
  maxTokens?: number;
  /** The custom headers saved for `baseUrl`'s origin (see custom-headers.ts). */
  headers?: readonly CustomHeader[];
}

/**
 * The openai SDK and the adapter over it, loaded on demand: most of the
 * worker's code, which its start — the database, the recovery sweep, expiring
 * cards, a decision — does not need, and which would otherwise be compiled
 * and run beside the page's first render. The promise is kept: every caller
 * waits for the one load.
 */
let builder: Promise<typeof BuildModel> | undefined;

function loadBuilder(): Promise<typeof BuildModel> {
  if (!builder) {
    const loading = import('./build-model.ts');
    // A load that failed (the worker's files replaced by a new version, say) is tried again next time.
    loading.catch(() => {
      if (builder === loading) builder = undefined;
    });
    builder = loading;
  }
  return builder;
}

/** Starts loading the model code, if it is not loaded yet: when a model call is likely soon. */
export function preloadModel(): void {
  loadBuilder().catch(() => {});
}

/** Compiles the model call's paths ahead of the first real one (see `rehearseCompletion`); sends nothing. */
export async function rehearseModelCall(): Promise<void> {
  const { rehearseCompletion } = await loadBuilder();
  await rehearseCompletion();
}

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
let last: { key: string; model: Promise<OpenAIModel> } | undefined;

/** The model port for the user's settings: the scripted demo, or their endpoint through the openai SDK. */
export function modelFor(endpoint: Endpoint): Promise<OpenAIModel> {
  const key = JSON.stringify([endpoint.provider, endpoint.baseUrl, endpoint.apiKey, endpoint.model ?? '', endpoint.maxTokens ?? DEFAULT_MAX_TOKENS, endpoint.headers ?? []]);
  if (last?.key === key) return last.model;
  const model = loadBuilder().then(({ buildModel }) => buildModel(endpoint));
  last = { key, model };
  model.catch(() => {
    if (last?.model === model) last = undefined;
  });
  return model;
}

export async function modelFromSettings(settings: Settings | undefined): Promise<OpenAIModel> {
  if (!settings) throw new ModelError('auth', 'No model is set up yet. Open Settings to choose a provider and model.');
  if (settings.provider !== 'demo' && !settings.model.trim()) {
    throw new ModelError('bad_request', 'No model is chosen. Open Settings and pick one (Test connection lists them).');
  }
  return modelFor(settings);
}
