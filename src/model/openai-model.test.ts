import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '../../tests/fake-llm/index.ts';
import { ModelError } from '../engine/errors.ts';
import type { ModelRequest, ToolSpec } from '../engine/model-port.ts';
import { OpenAIModel, type OpenAIModelOptions } from './openai-model.ts';

let llm: FakeLlm;
beforeAll(async () => {
  llm = await startFakeLlm({ requireKey: 'sk-good' });
});
afterEach(() => llm.reset());
afterAll(() => llm.close());

function model(options: Partial<OpenAIModelOptions> = {}): OpenAIModel {
  return new OpenAIModel({ baseUrl: llm.baseUrl, apiKey: 'sk-good', model: 'fake-model', ...options });
}

const NOTE_TOOL: ToolSpec = {
  type: 'function',
  function: { name: 'save_note', description: 'Save a note', parameters: { type: 'object', properties: {} } },
};

function request(overrides: Partial<ModelRequest> = {}): ModelRequest & { deltas: string[] } {
  const deltas: string[] = [];
  return {
    messages: [{ role: 'user', content: 'hi' }],
    tools: [],
    signal: new AbortController().signal,
    onText: (delta) => deltas.push(delta),
    deltas,
    ...overrides,
  };
}

/** The ModelError a call fails with; fails the test when it resolves or throws anything else. */
async function failure(promise: Promise<unknown>): Promise<ModelError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ModelError);
  return error as ModelError;
}

describe('OpenAIModel.complete', () => {
  it('assembles streamed text and reports each piece as it arrives', async () => {
    llm.enqueue({ content: 'Hello there, this arrives in pieces.', chunkSize: 5 });
    const req = request();
    const result = await model().complete(req);

    expect(result).toMatchObject({ content: 'Hello there, this arrives in pieces.', toolCalls: [], finishReason: 'stop' });
    expect(req.deltas.length).toBeGreaterThan(3);
    expect(req.deltas.join('')).toBe(result.content);
  });

  it('sends the model, the messages, stream: true, and tools only when there are some', async () => {
    llm.enqueue({ content: 'a' }, { content: 'b' });
    await model().complete(request());
    await model().complete(request({ tools: [NOTE_TOOL] }));

    const [without, withTools] = llm.chatRequests();
    expect(without?.body).toMatchObject({ model: 'fake-model', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    expect(without?.body).not.toHaveProperty('tools');
    expect(withTools?.body.tools).toEqual([NOTE_TOOL]);
    expect(withTools?.headers.authorization).toBe('Bearer sk-good');
  });

  it('sends the answer’s token limit as max_tokens, or in the field it is told to use', async () => {
    llm.enqueue({ content: 'a' }, { content: 'b' }, { content: 'c' });
    await model({ maxTokens: 4096 }).complete(request());
    await model({ maxTokens: 300, maxTokensField: 'max_completion_tokens' }).complete(request());
    await model().complete(request());

    const [plain, completion, unlimited] = llm.chatRequests();
    expect(plain?.body).toMatchObject({ max_tokens: 4096 });
    expect(plain?.body).not.toHaveProperty('max_completion_tokens');
    expect(completion?.body).toMatchObject({ max_completion_tokens: 300 });
    expect(completion?.body).not.toHaveProperty('max_tokens');
    expect(unlimited?.body).not.toHaveProperty('max_tokens');
  });

  it('a request’s own token cap lowers the endpoint’s limit for that call, and never raises it', async () => {
    llm.enqueue({ content: 'a' }, { content: 'b' }, { content: 'c' }, { content: 'd' });
    const limited = model({ maxTokens: 4096, maxTokensField: 'max_completion_tokens' });
    await limited.complete(request({ maxTokens: 50 }));
    await limited.complete(request({ maxTokens: 10_000 }));
    await limited.complete(request());
    await model().complete(request({ maxTokens: 50 }));

    const [lower, higher, none, unlimited] = llm.chatRequests();
    expect(lower?.body).toMatchObject({ max_completion_tokens: 50 });
    expect(higher?.body).toMatchObject({ max_completion_tokens: 4096 });
    expect(none?.body).toMatchObject({ max_completion_tokens: 4096 });
    expect(unlimited?.body).toMatchObject({ max_tokens: 50 });
  });

  it('assembles parallel tool calls whose arguments arrive split across chunks', async () => {
    llm.enqueue({
      content: 'Two things.',
      chunkSize: 3,
      toolCalls: [
        { id: 'call_a', name: 'save_note', arguments: { title: 'First', body: 'a longer body that spans chunks' } },
        { id: 'call_b', name: 'list_notes', arguments: {} },
      ],
    });
    const result = await model().complete(request({ tools: [NOTE_TOOL] }));

    expect(result.finishReason).toBe('tool_calls');
    expect(result.content).toBe('Two things.');
    expect(result.toolCalls).toEqual([
      { id: 'call_a', name: 'save_note', arguments: JSON.stringify({ title: 'First', body: 'a longer body that spans chunks' }) },
      { id: 'call_b', name: 'list_notes', arguments: '{}' },
    ]);
  });

  it('keeps malformed tool arguments verbatim for the engine to report', async () => {
    llm.enqueue({ toolCalls: [{ id: 'call_x', name: 'save_note', arguments: '{"title": "oops' }] });
    const result = await model().complete(request({ tools: [NOTE_TOOL] }));
    expect(result.toolCalls).toEqual([{ id: 'call_x', name: 'save_note', arguments: '{"title": "oops' }]);
  });

  it('maps 401 to auth, telling the user to check the key', async () => {
    const error = await failure(model({ apiKey: 'sk-wrong' }).complete(request()));
    expect(error).toMatchObject({ kind: 'auth', status: 401, retryable: false });
    expect(error.message).toBe('The endpoint refused the API key (401). Check the key in Settings.');
  });

  it('maps 403 to auth with the endpoint’s reason', async () => {
    llm.enqueue({ fault: 'status', status: 403, message: 'Project does not have access to model fake-model' });
    const error = await failure(model().complete(request()));
    expect(error).toMatchObject({ kind: 'auth', status: 403 });
    expect(error.message).toContain('Project does not have access to model fake-model');
  });

  it('maps 429 to rate_limit with the wait from retry-after', async () => {
    llm.enqueue({ fault: 'status', status: 429, retryAfter: 7 });
    const error = await failure(model().complete(request()));
    expect(error).toMatchObject({ kind: 'rate_limit', status: 429, retryAfterMs: 7000, retryable: true });
  });

  it('maps 500 and 503 to server', async () => {
    llm.enqueue({ fault: 'status', status: 500 }, { fault: 'status', status: 503 });
    expect(await failure(model().complete(request()))).toMatchObject({ kind: 'server', status: 500, retryable: true });
    expect(await failure(model().complete(request()))).toMatchObject({ kind: 'server', status: 503 });
  });

  it('maps 400, 404 and 422 to bad_request, quoting the endpoint', async () => {
    llm.enqueue(
      { fault: 'status', status: 404, message: 'The model `gpt-9` does not exist' },
      { fault: 'status', status: 400, message: 'tools are not supported by this model' },
      { fault: 'status', status: 422 },
    );
    const notFound = await failure(model().complete(request()));
    expect(notFound).toMatchObject({ kind: 'bad_request', status: 404, retryable: false });
    expect(notFound.message).toContain('The model `gpt-9` does not exist');
    expect(notFound.message).toContain('model name');
    const badRequest = await failure(model().complete(request()));
    expect(badRequest).toMatchObject({ kind: 'bad_request', status: 400 });
    expect(badRequest.message).toContain('tools are not supported by this model');
    expect(await failure(model().complete(request()))).toMatchObject({ kind: 'bad_request', status: 422 });
  });

  it('reports a stream that breaks off as dropped, after delivering the partial text', async () => {
    llm.enqueue({ fault: 'drop', content: 'This answer is cut off somewhere in', afterChunks: 2 });
    const req = request();
    const error = await failure(model().complete(req));
    expect(error).toMatchObject({ kind: 'dropped', retryable: true });
    expect(req.deltas.join('')).toBe('This answer is c');
  });

  it('cuts an endpoint that never answers after timeoutMs', async () => {
    llm.enqueue({ fault: 'hang' });
    const started = Date.now();
    const error = await failure(model({ timeoutMs: 300 }).complete(request()));
    expect(error).toMatchObject({ kind: 'timeout', retryable: true });
    expect(error.message).toContain('0.3 s');
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('cuts a stream that goes quiet midway, which the SDK alone never would', async () => {
    // Headers and the role chunk arrive at once; every chunk after that waits 2 s.
    llm.enqueue({ content: 'slow '.repeat(20), chunkSize: 5, chunkDelayMs: 2000 });
    const started = Date.now();
    const error = await failure(model({ timeoutMs: 300 }).complete(request()));
    expect(error).toMatchObject({ kind: 'timeout', retryable: true });
    expect(error.message).toContain('stopped sending');
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('lets a slow but steady stream finish: the timeout is per gap, not per answer', async () => {
    llm.enqueue({ content: 'steady '.repeat(8), chunkSize: 7, chunkDelayMs: 100 });
    const result = await model({ timeoutMs: 300 }).complete(request());
    expect(result.content).toBe('steady '.repeat(8));
  });

  it('maps an abort before the answer starts to aborted', async () => {
    llm.enqueue({ fault: 'hang' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await failure(model().complete(request({ signal: controller.signal })));
    expect(error).toMatchObject({ kind: 'aborted', retryable: false });
  });

  it('maps an abort in the middle of a stream to aborted, not to a finished answer', async () => {
    llm.enqueue({ content: 'word '.repeat(40), chunkSize: 5, chunkDelayMs: 20 });
    const controller = new AbortController();
    const req = request({
      signal: controller.signal,
      onText: (delta) => {
        req.deltas.push(delta);
        if (req.deltas.length === 3) controller.abort();
      },
    });
    const error = await failure(model().complete(req));
    expect(error).toMatchObject({ kind: 'aborted' });
    expect(req.deltas).toHaveLength(3);
  });

  it('lets an error thrown by onText through untouched', async () => {
    llm.enqueue({ content: 'some text', chunkSize: 2 });
    const boom = new Error('storage is full');
    await expect(model().complete(request({ onText: () => { throw boom; } }))).rejects.toBe(boom);
  });

  it('maps an unreachable endpoint to network, mentioning CORS', async () => {
    const unreachable = new OpenAIModel({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-good', model: 'm' });
    const error = await failure(unreachable.complete(request()));
    expect(error).toMatchObject({ kind: 'network', retryable: false });
    expect(error.message).toMatch(/unreachable/);
    expect(error.message).toMatch(/CORS/);
  });

  it('never retries on its own: one failure, one request', async () => {
    llm.enqueue({ fault: 'status', status: 503 });
    await failure(model().complete(request()));
    expect(llm.chatRequests()).toHaveLength(1);
  });
});

describe('OpenAIModel.listModels', () => {
  it('lists the endpoint’s model ids', async () => {
    expect(await model().listModels()).toEqual(['fake-model', 'fake-model-mini']);
  });

  it('maps a refused key to auth', async () => {
    expect(await failure(model({ apiKey: 'sk-wrong' }).listModels())).toMatchObject({ kind: 'auth', status: 401 });
  });

  it('maps a wrong base URL to bad_request', async () => {
    const wrongPath = new OpenAIModel({ baseUrl: `${llm.origin}/nope`, apiKey: 'sk-good', model: 'm' });
    expect(await failure(wrongPath.listModels())).toMatchObject({ kind: 'bad_request', status: 404 });
  });

  it('sends the key only to the configured endpoint', async () => {
    await model().listModels();
    expect(llm.requests.map((r) => `${r.method} ${r.path} ${r.headers.authorization}`)).toEqual(['GET /v1/models Bearer sk-good']);
  });
});

describe('OpenAIModel.complete, stream endings the fake server cannot script', () => {
  const chunk = (delta: object, finishReason: string | null = null) =>
    `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;

  /** A fetch whose SSE body sends `events`, then either closes or errors. */
  function sseFetch(events: string[], end: 'close' | 'error'): typeof fetch {
    return async () => {
      const encoder = new TextEncoder();
      const queue = [...events];
      // One event per pull: erroring a stream discards whatever is still queued in it.
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          const event = queue.shift();
          if (event !== undefined) controller.enqueue(encoder.encode(event));
          else if (end === 'close') controller.close();
          else controller.error(new TypeError('network error'));
        },
      });
      return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
    };
  }

  const sse = (events: string[], end: 'close' | 'error') =>
    new OpenAIModel({ baseUrl: 'https://endpoint.test/v1', apiKey: 'k', model: 'm', fetch: sseFetch(events, end) });

  it('keeps a finished answer whose connection broke before [DONE]', async () => {
    const result = await sse([chunk({ role: 'assistant', content: 'All done.' }), chunk({}, 'stop')], 'error').complete(request());
    expect(result).toEqual({ content: 'All done.', toolCalls: [], finishReason: 'stop' });
  });

  it('calls an answer that ends cleanly but without a finish reason dropped', async () => {
    const req = request();
    const error = await failure(sse([chunk({ role: 'assistant', content: 'Half an' }), 'data: [DONE]\n\n'], 'close').complete(req));
    expect(error.kind).toBe('dropped');
    expect(req.deltas.join('')).toBe('Half an');
  });

  it('calls a browser-style network error mid-stream dropped', async () => {
    const error = await failure(sse([chunk({ role: 'assistant', content: 'Half an' })], 'error').complete(request()));
    expect(error.kind).toBe('dropped');
    expect(error.message).toContain('network error');
  });
});
