import { DEMO_BASE_URL } from './demo-endpoint.ts';
import { createDemoFetch, DEMO_MODEL_ID, type DemoFetchOptions } from './demo-fetch.ts';
import { OpenAIModel } from './openai-model.ts';

// `.invalid` never resolves, so even a wiring mistake that bypassed the demo fetch could not reach a real host.
export { DEMO_BASE_URL, DEMO_MODEL_ID };

/**
 * The built-in Demo model: scripted and offline, yet driven through the same
 * openai SDK path as a real endpoint (`OpenAIModel` with a fetch that answers
 * in-process), so the demo exercises the code real conversations use.
 */
export function createDemoModel(options: DemoFetchOptions = {}): OpenAIModel {
  return new OpenAIModel({
    baseUrl: DEMO_BASE_URL,
    // Not a secret and not the user's: the SDK refuses to start without some key.
    apiKey: 'pausepoint-demo',
    model: DEMO_MODEL_ID,
    fetch: createDemoFetch(options),
  });
}
