import { demoReply } from './demo-script.ts';
import { demoSseResponse } from './demo-sse-response.ts';
import { DemoRequestBody, demoTurn } from './demo-turn.ts';
import { DEMO_MODEL_ID } from './demo-endpoint.ts';

export { DEMO_MODEL_ID };

export interface DemoFetchOptions {
  /** Pause between streamed chunks; 0 in tests. */
  chunkDelayMs?: number;
}

const DEFAULT_CHUNK_DELAY_MS = 30;

/**
 * A `fetch` that answers the two requests the app makes of a model endpoint,
 * `POST …/chat/completions` (streamed) and `GET …/models`, from the demo
 * script, in this thread. It never touches the network: anything else gets a 404.
 */
export function createDemoFetch(options: DemoFetchOptions = {}): typeof fetch {
  const chunkDelayMs = options.chunkDelayMs ?? DEFAULT_CHUNK_DELAY_MS;

  return async (input, init) => {
    const request = new Request(input, init);
    if (request.signal.aborted) throw request.signal.reason;
    const path = new URL(request.url).pathname;

    if (request.method === 'GET' && path.endsWith('/models')) {
      return json(200, { object: 'list', data: [{ id: DEMO_MODEL_ID, object: 'model', created: 0, owned_by: 'pausepoint' }] });
    }
    if (request.method === 'POST' && path.endsWith('/chat/completions')) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(await request.text());
      } catch (cause) {
        return error(400, `The demo model could not read this request: ${String(cause)}`);
      }
      const body = DemoRequestBody.safeParse(parsed);
      if (!body.success) return error(400, `The demo model could not read this request: ${body.error.message}`);
      // The app always streams; a second, non-streaming answer path would only be dead code here.
      if (body.data.stream !== true) return error(400, 'The demo model only answers streamed requests (stream: true).');
      const reply = demoReply(demoTurn(body.data));
      return demoSseResponse(reply, { model: body.data.model, chunkDelayMs, signal: request.signal });
    }
    return error(404, `The demo model has nothing at ${request.method} ${path}.`);
  };
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** OpenAI's error shape, so the SDK raises its usual typed errors. */
function error(status: number, message: string): Response {
  return json(status, { error: { message, type: 'invalid_request_error', param: null, code: null } });
}
