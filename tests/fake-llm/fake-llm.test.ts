import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { messageText, startFakeLlm, type FakeLlm, type FakeLlmOptions } from './index.ts';

const USER = [{ role: 'user' as const, content: 'Hello' }];

let servers: FakeLlm[] = [];

async function start(options?: FakeLlmOptions): Promise<FakeLlm> {
  const llm = await startFakeLlm(options);
  servers.push(llm);
  return llm;
}

function client(llm: FakeLlm, options: { maxRetries?: number; timeout?: number; apiKey?: string } = {}): OpenAI {
  return new OpenAI({ baseURL: llm.baseUrl, apiKey: options.apiKey ?? 'sk-test', maxRetries: 0, ...options });
}

async function collect(stream: AsyncIterable<ChatCompletionChunk>): Promise<ChatCompletionChunk[]> {
  const chunks: ChatCompletionChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

/** The error a promise rejects with, so its class and fields can be asserted. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

afterEach(async () => {
  await Promise.all(servers.map((llm) => llm.close()));
  servers = [];
});

describe('fake-llm', () => {
  it('binds to loopback and reports its URLs', async () => {
    const llm = await start();
    expect(llm.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(llm.baseUrl).toBe(`${llm.origin}/v1`);
  });

  describe('messages', () => {
    it('streams text in several chunks that concatenate to the scripted content', async () => {
      const llm = await start();
      const content = 'The quick brown fox jumps over the lazy dog.';
      llm.enqueue({ content, chunkSize: 5 });

      const chunks = await collect(
        await client(llm).chat.completions.create({ model: 'fake-model', messages: USER, stream: true }),
      );

      const deltas = chunks.map((c) => c.choices[0]?.delta.content ?? '').filter(Boolean);
      expect(deltas.length).toBe(Math.ceil(content.length / 5));
      expect(deltas.join('')).toBe(content);
      expect(chunks[0]?.choices[0]?.delta.role).toBe('assistant');
      expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('stop');
    });

    it('splits parallel tool-call arguments across chunks, and the SDK reassembles them', async () => {
      const llm = await start();
      const toolCalls = [
        { id: 'call_weather', name: 'get_weather', arguments: { city: 'Paris', unit: 'celsius' } },
        { name: 'http_request', arguments: '{"url":"https://example.com/a","method":"GET"}' },
      ];
      llm.enqueue({ toolCalls }, { toolCalls });
      const openai = client(llm);

      const chunks = await collect(
        await openai.chat.completions.create({ model: 'fake-model', messages: USER, stream: true }),
      );
      const deltas = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
      for (const index of [0, 1]) {
        const forCall = deltas.filter((d) => d.index === index);
        expect(forCall.length).toBeGreaterThan(2);
        expect(forCall[0]).toMatchObject({ type: 'function', id: expect.any(String), function: { name: expect.any(String) } });
        // Only the head chunk names the call; the rest carry argument pieces.
        expect(forCall.slice(1).every((d) => d.id === undefined && d.function?.name === undefined)).toBe(true);
      }
      expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('tool_calls');

      const completion = await openai.chat.completions
        .stream({ model: 'fake-model', messages: USER })
        .finalChatCompletion();
      const calls = completion.choices[0]?.message.tool_calls ?? [];
      expect(calls).toHaveLength(2);
      expect(calls[0]).toMatchObject({ id: 'call_weather', function: { name: 'get_weather' } });
      expect(calls[1]?.id).toMatch(/^call_/);
      const args = calls.map((c) => (c.type === 'function' ? JSON.parse(c.function.arguments) : undefined));
      expect(args).toEqual([
        { city: 'Paris', unit: 'celsius' },
        { url: 'https://example.com/a', method: 'GET' },
      ]);
      expect(completion.choices[0]?.finish_reason).toBe('tool_calls');
    });

    it('answers a non-streaming request with one chat.completion', async () => {
      const llm = await start();
      llm.enqueue({ content: 'Plain answer' }, { toolCalls: [{ name: 'noop', arguments: {} }], content: 'Calling' });
      const openai = client(llm);

      const first = await openai.chat.completions.create({ model: 'fake-model-mini', messages: USER });
      expect(first.object).toBe('chat.completion');
      expect(first.model).toBe('fake-model-mini');
      expect(first.choices[0]?.message).toMatchObject({ role: 'assistant', content: 'Plain answer' });
      expect(first.choices[0]?.finish_reason).toBe('stop');
      expect(first.usage?.total_tokens).toBeGreaterThan(0);

      const second = await openai.chat.completions.create({ model: 'fake-model', messages: USER });
      expect(second.choices[0]?.finish_reason).toBe('tool_calls');
      expect(second.choices[0]?.message.tool_calls?.[0]).toMatchObject({ type: 'function', function: { name: 'noop', arguments: '{}' } });
    });

    it('adds a usage chunk when the request asks for it', async () => {
      const llm = await start();
      llm.enqueue({ content: 'counted' });
      const chunks = await collect(
        await client(llm).chat.completions.create({
          model: 'fake-model',
          messages: USER,
          stream: true,
          stream_options: { include_usage: true },
        }),
      );
      expect(chunks.at(-1)?.choices).toEqual([]);
      expect(chunks.at(-1)?.usage?.completion_tokens).toBeGreaterThan(0);
    });

    it('reports scripted token counts, cached and reasoning included, streamed and not', async () => {
      const llm = await start();
      const tokens = { prompt: 120, completion: 30, cached: 100, reasoning: 12 };
      llm.enqueue({ content: 'a', tokens }, { content: 'b', tokens });
      const chunks = await collect(
        await client(llm).chat.completions.create({ model: 'fake-model', messages: USER, stream: true, stream_options: { include_usage: true } }),
      );
      const plain = await client(llm).chat.completions.create({ model: 'fake-model', messages: USER });
      for (const usage of [chunks.at(-1)?.usage, plain.usage]) {
        expect(usage).toMatchObject({
          prompt_tokens: 120,
          completion_tokens: 30,
          total_tokens: 150,
          prompt_tokens_details: { cached_tokens: 100 },
          completion_tokens_details: { reasoning_tokens: 12 },
        });
      }
    });

    it('refuses stream_options with a 400 when told to, without using up the scripted reply', async () => {
      const llm = await start({ refuseStreamOptions: true });
      llm.enqueue({ content: 'still here' });
      const refused = await rejection(
        client(llm).chat.completions.create({ model: 'fake-model', messages: USER, stream: true, stream_options: { include_usage: true } }),
      );
      expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
      expect((refused as Error).message).toContain('stream_options');
      const chunks = await collect(await client(llm).chat.completions.create({ model: 'fake-model', messages: USER, stream: true }));
      expect(chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('')).toBe('still here');
      expect(chunks.some((c) => c.usage)).toBe(false);
    });

    it('paces a slow stream with chunkDelayMs', async () => {
      const llm = await start();
      llm.enqueue({ content: 'slow stream text', chunkSize: 4, chunkDelayMs: 40 });
      const started = Date.now();
      const times: number[] = [];
      const stream = await client(llm).chat.completions.create({ model: 'fake-model', messages: USER, stream: true });
      for await (const chunk of stream) if (chunk.choices[0]?.delta.content) times.push(Date.now() - started);
      expect(times).toHaveLength(4);
      // The 5 chunks after the role chunk are each delayed 40 ms.
      expect(Date.now() - started).toBeGreaterThanOrEqual(200);
      expect(times[3]! - times[0]!).toBeGreaterThanOrEqual(100);
    });
  });

  describe('request log', () => {
    it('records messages, tools and the authorization header', async () => {
      const llm = await start();
      llm.enqueue({ content: 'ok' });
      const tools = [{ type: 'function' as const, function: { name: 'noop', parameters: { type: 'object' } } }];
      await client(llm, { apiKey: 'sk-recorded' }).chat.completions.create({ model: 'fake-model', messages: USER, tools });

      const [request] = llm.chatRequests();
      expect(request?.method).toBe('POST');
      expect(request?.path).toBe('/v1/chat/completions');
      expect(request?.headers['authorization']).toBe('Bearer sk-recorded');
      expect(request?.body.model).toBe('fake-model');
      expect(request?.body.messages).toEqual(USER);
      expect(request?.body.tools).toEqual(tools);
      expect(request?.body.stream).toBeUndefined();
      expect(llm.requests).toHaveLength(1);
      expect(llm.pendingReplies).toBe(0);
    });

    it('stamps each request with when its head arrived, on the epoch clock, below the millisecond', async () => {
      const llm = await start();
      const epochNow = () => performance.timeOrigin + performance.now();
      // The head first; the body only once the server has parsed it (its 100 Continue says so), and 50 ms later.
      const { request } = await import('node:http');
      const before = epochNow();
      const slow = request(`${llm.origin}/sink/slow`, { method: 'POST', headers: { 'content-type': 'text/plain', expect: '100-continue' } });
      const answered = new Promise<void>((resolve, reject) => {
        slow.once('response', (res) => res.resume().once('end', resolve));
        slow.once('error', reject);
      });
      await new Promise((resolve) => slow.once('continue', resolve));
      await new Promise((resolve) => setTimeout(resolve, 50));
      const bodySentAt = epochNow();
      slow.end('late body');
      await answered;
      const after = epochNow();

      const [recorded] = llm.sinkHits('slow');
      expect(recorded?.body).toBe('late body');
      expect(recorded!.receivedAt).toBeGreaterThanOrEqual(before);
      expect(recorded!.receivedAt).toBeLessThanOrEqual(bodySentAt - 45);
      expect(recorded!.at).toBeGreaterThanOrEqual(Math.floor(bodySentAt) - 1);
      expect(recorded!.at).toBeLessThanOrEqual(after + 1);

      // Sub-millisecond: over a few requests, not every stamp is a whole number of ms (Date.now() always is).
      for (let i = 0; i < 3; i++) await fetch(`${llm.origin}/sink/quick`);
      expect(llm.sinkHits('quick').some((r) => !Number.isInteger(r.receivedAt))).toBe(true);
    });

    it('waits for chat requests and times out with a count', async () => {
      const llm = await start();
      llm.onRequest(() => ({ content: 'ok' }));
      const waiting = llm.waitForChatRequests(2, 2_000);
      const openai = client(llm);
      await openai.chat.completions.create({ model: 'fake-model', messages: USER });
      await openai.chat.completions.create({ model: 'fake-model', messages: USER });
      expect(await waiting).toHaveLength(2);

      await expect(llm.waitForChatRequests(3, 50)).rejects.toThrow('got 2');
    });

    it('reset clears the queue, the rules and the logs', async () => {
      const llm = await start();
      llm.enqueue({ content: 'queued' });
      llm.onRequest(() => ({ content: 'rule' }));
      await fetch(`${llm.origin}/sink/before`);
      llm.reset();
      expect(llm.requests).toEqual([]);
      expect(llm.pendingReplies).toBe(0);
      const error = await rejection(client(llm).chat.completions.create({ model: 'fake-model', messages: USER }));
      expect(error).toBeInstanceOf(OpenAI.InternalServerError);
    });
  });

  describe('faults', () => {
    it('401 becomes AuthenticationError with code invalid_api_key', async () => {
      const llm = await start();
      llm.enqueue({ fault: 'status', status: 401 });
      const error = await rejection(client(llm).chat.completions.create({ model: 'fake-model', messages: USER }));
      expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
      expect(error).toMatchObject({ status: 401, code: 'invalid_api_key', type: 'invalid_request_error' });
    });

    it('429 carries retry-after', async () => {
      const llm = await start();
      llm.enqueue({ fault: 'status', status: 429, retryAfter: 7, message: 'slow down' });
      const error = await rejection(client(llm).chat.completions.create({ model: 'fake-model', messages: USER }));
      expect(error).toBeInstanceOf(OpenAI.RateLimitError);
      if (!(error instanceof OpenAI.RateLimitError)) return;
      expect(error.headers.get('retry-after')).toBe('7');
      expect(error.message).toBe('429 slow down');
      expect(error.code).toBe('rate_limit_exceeded');
    });

    it('429 is retried once by an SDK with maxRetries 1', async () => {
      const llm = await start();
      llm.enqueue({ fault: 'status', status: 429, retryAfter: 0 }, { content: 'after retry' });
      const completion = await client(llm, { maxRetries: 1 }).chat.completions.create({ model: 'fake-model', messages: USER });
      expect(completion.choices[0]?.message.content).toBe('after retry');
      const requests = llm.chatRequests();
      expect(requests).toHaveLength(2);
      expect(requests.map((r) => r.headers['x-stainless-retry-count'])).toEqual(['0', '1']);
    });

    it('500 becomes InternalServerError', async () => {
      const llm = await start();
      llm.enqueue({ fault: 'status', status: 500 });
      const error = await rejection(client(llm).chat.completions.create({ model: 'fake-model', messages: USER }));
      expect(error).toBeInstanceOf(OpenAI.InternalServerError);
      expect(error).toMatchObject({ status: 500, type: 'server_error' });
    });

    it('a dropped stream makes iteration throw after the first chunks', async () => {
      const llm = await start();
      llm.enqueue({ fault: 'drop', content: 'partial words never finish', afterChunks: 2 });
      const stream = await client(llm).chat.completions.create({ model: 'fake-model', messages: USER, stream: true });
      const received: string[] = [];
      const error = await rejection(
        (async () => {
          for await (const chunk of stream) received.push(chunk.choices[0]?.delta.content ?? '');
        })(),
      );
      // The SDK does not wrap this: it is the fetch implementation's own error
      // (undici's `TypeError: terminated` in Node), not an OpenAI.APIError.
      expect(error).toBeInstanceOf(Error);
      expect(received.join('')).toBe('partial words ne');
    });

    it('a dropped non-streaming reply rejects too', async () => {
      const llm = await start();
      llm.enqueue({ fault: 'drop' });
      const error = await rejection(client(llm).chat.completions.create({ model: 'fake-model', messages: USER }));
      expect(error).toBeInstanceOf(Error);
    });

    it('a hanging reply is cut by the SDK timeout, and close() does not wait for it', async () => {
      const llm = await start();
      llm.enqueue({ fault: 'hang' }, { fault: 'hang' });
      const started = Date.now();
      const error = await rejection(
        client(llm, { timeout: 200 }).chat.completions.create({ model: 'fake-model', messages: USER, stream: true }),
      );
      expect(error).toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
      expect(Date.now() - started).toBeLessThan(2_000);

      // A second hang the client never gives up on: close() must still return promptly.
      const pending = client(llm).chat.completions.create({ model: 'fake-model', messages: USER });
      await llm.waitForChatRequests(2);
      const closing = Date.now();
      await llm.close();
      expect(Date.now() - closing).toBeLessThan(1_000);
      expect(await rejection(pending)).toBeInstanceOf(OpenAI.APIConnectionError);
    });

    it('slow-headers waits, then answers with its reply', async () => {
      const llm = await start();
      llm.enqueue({ fault: 'slow-headers', delayMs: 150, then: { content: 'finally' } });
      const started = Date.now();
      const completion = await client(llm).chat.completions.create({ model: 'fake-model', messages: USER });
      expect(Date.now() - started).toBeGreaterThanOrEqual(140);
      expect(completion.choices[0]?.message.content).toBe('finally');
    });

    it('an unscripted call fails loudly with 500 and is not retried', async () => {
      const llm = await start();
      const openai = new OpenAI({ baseURL: llm.baseUrl, apiKey: 'sk-test' }); // default retries
      const error = await rejection(openai.chat.completions.create({ model: 'fake-model', messages: USER }));
      expect(error).toBeInstanceOf(OpenAI.InternalServerError);
      expect(error).toMatchObject({ status: 500, type: 'fake_llm_unscripted', message: '500 fake-llm: no scripted reply' });
      expect(llm.chatRequests()).toHaveLength(1);
    });
  });

  describe('rules', () => {
    it('answer from the received messages when the queue is empty, first match wins', async () => {
      const llm = await start();
      llm.onRequest((req) =>
        req.body.messages.some((m) => m.role === 'tool') ? { content: 'The weather is sunny.' } : undefined,
      );
      llm.onRequest((req) =>
        messageText(req.body.messages.at(-1)).includes('weather')
          ? { toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }] }
          : undefined,
      );
      llm.onRequest(() => ({ content: 'fallback' }));
      const openai = client(llm);

      const first = await openai.chat.completions.create({
        model: 'fake-model',
        messages: [{ role: 'user', content: [{ type: 'text', text: 'What is the weather?' }] }],
      });
      const call = first.choices[0]?.message.tool_calls?.[0];
      expect(call?.type === 'function' && call.function.name).toBe('get_weather');

      const second = await openai.chat.completions.create({
        model: 'fake-model',
        messages: [
          { role: 'user', content: 'What is the weather?' },
          { role: 'assistant', content: null, tool_calls: first.choices[0]?.message.tool_calls ?? [] },
          { role: 'tool', tool_call_id: 'call_1', content: '{"sky":"clear"}' },
        ],
      });
      expect(second.choices[0]?.message.content).toBe('The weather is sunny.');

      const third = await openai.chat.completions.create({ model: 'fake-model', messages: USER });
      expect(third.choices[0]?.message.content).toBe('fallback');
    });

    it('that throw turn into a loud, unretried 500', async () => {
      const llm = await start();
      const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      llm.onRequest(() => {
        throw new Error('bad rule');
      });
      const openai = new OpenAI({ baseURL: llm.baseUrl, apiKey: 'sk-test' }); // default retries
      const error = await rejection(openai.chat.completions.create({ model: 'fake-model', messages: USER }));
      expect(error).toMatchObject({ status: 500, type: 'fake_llm_internal', message: '500 fake-llm: bad rule' });
      expect(llm.chatRequests()).toHaveLength(1);
      expect(quiet).toHaveBeenCalled();
      quiet.mockRestore();
    });

    it('yield to the queue', async () => {
      const llm = await start();
      llm.onRequest(() => ({ content: 'rule' }));
      llm.enqueue({ content: 'queued' });
      const openai = client(llm);
      const answers = [];
      for (let i = 0; i < 2; i++) {
        const completion = await openai.chat.completions.create({ model: 'fake-model', messages: USER });
        answers.push(completion.choices[0]?.message.content);
      }
      expect(answers).toEqual(['queued', 'rule']);
    });
  });

  describe('other endpoints', () => {
    it('answers a CORS preflight echoing the requested headers', async () => {
      const llm = await start();
      const response = await fetch(`${llm.baseUrl}/chat/completions`, {
        method: 'OPTIONS',
        headers: {
          origin: 'http://localhost:4173',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type, x-stainless-os, x-stainless-retry-count',
        },
      });
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:4173');
      expect(response.headers.get('access-control-allow-methods')).toContain('POST');
      expect(response.headers.get('access-control-allow-headers')).toBe(
        'authorization, content-type, x-stainless-os, x-stainless-retry-count',
      );
      expect(Number(response.headers.get('access-control-max-age'))).toBeGreaterThan(0);
    });

    it('puts CORS headers on ordinary and error responses', async () => {
      const llm = await start();
      llm.enqueue({ fault: 'status', status: 429, retryAfter: 1 });
      const response = await fetch(`${llm.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'fake-model', messages: USER }),
      });
      expect(response.status).toBe(429);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-expose-headers')).toContain('retry-after');
      expect(response.headers.get('access-control-expose-headers')).toContain('x-request-id');
      expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    });

    it('lists models', async () => {
      const llm = await start();
      const models = await client(llm).models.list();
      expect(models.data.map((m) => m.id)).toEqual(['fake-model', 'fake-model-mini']);
      expect(models.data[0]).toMatchObject({ object: 'model', owned_by: 'fake-llm' });

      const custom = await start({ models: ['alpha', 'beta/7b'] });
      const ids = (await client(custom).models.list()).data.map((m) => m.id);
      expect(ids).toEqual(['alpha', 'beta/7b']);
      expect((await client(custom).models.retrieve('alpha')).id).toBe('alpha');
    });

    it('counts side-effect sink hits per path', async () => {
      const llm = await start();
      const hit = async (path: string, method = 'POST') =>
        (await fetch(`${llm.origin}${path}`, { method, body: method === 'GET' ? undefined : '{"n":1}' })).json();
      expect(await hit('/sink/email')).toEqual({ ok: true, hit: 1 });
      expect(await hit('/sink/email', 'PUT')).toEqual({ ok: true, hit: 2 });
      expect(await hit('/sink/other', 'GET')).toEqual({ ok: true, hit: 1 });
      expect(llm.sinkHits()).toHaveLength(3);
      expect(llm.sinkHits('/sink/email')).toHaveLength(2);
      expect(llm.sinkHits('email').map((r) => r.method)).toEqual(['POST', 'PUT']);
      expect(llm.sinkHits('/sink/email')[0]?.body).toEqual({ n: 1 });
    });

    it('requireKey rejects a wrong key on chat and models, accepts the right one', async () => {
      const llm = await start({ requireKey: 'sk-right' });
      llm.onRequest(() => ({ content: 'welcome' }));
      const wrong = client(llm, { apiKey: 'sk-wrong' });
      expect(await rejection(wrong.models.list())).toBeInstanceOf(OpenAI.AuthenticationError);
      expect(await rejection(wrong.chat.completions.create({ model: 'fake-model', messages: USER }))).toBeInstanceOf(
        OpenAI.AuthenticationError,
      );
      const right = client(llm, { apiKey: 'sk-right' });
      expect((await right.models.list()).data).toHaveLength(2);
      const completion = await right.chat.completions.create({ model: 'fake-model', messages: USER });
      expect(completion.choices[0]?.message.content).toBe('welcome');
      expect(llm.chatRequests().map((r) => r.headers['authorization'])).toEqual(['Bearer sk-wrong', 'Bearer sk-right']);
    });

    it('is scriptable over the control API', async () => {
      const llm = await start();
      const control = (path: string, body?: unknown) =>
        fetch(`${llm.origin}/_control/${path}`, {
          method: body === undefined && path === 'requests' ? 'GET' : 'POST',
          body: body === undefined ? undefined : JSON.stringify(body),
        });

      const enqueued = await control('enqueue', [{ content: 'over http' }, { fault: 'status', status: 503 }]);
      expect(await enqueued.json()).toEqual({ ok: true, pending: 2 });
      const openai = client(llm);
      const completion = await openai.chat.completions.create({ model: 'fake-model', messages: USER });
      expect(completion.choices[0]?.message.content).toBe('over http');
      expect(await rejection(openai.chat.completions.create({ model: 'fake-model', messages: USER }))).toMatchObject({
        status: 503,
      });

      const log = (await (await control('requests')).json()) as { requests: Array<{ path: string }> };
      expect(log.requests.map((r) => r.path)).toEqual(['/v1/chat/completions', '/v1/chat/completions']);

      const invalid = await control('enqueue', { fault: 'explode' });
      expect(invalid.status).toBe(400);
      expect(await invalid.text()).toContain('unknown fault');

      expect((await control('reset', {})).status).toBe(200);
      expect(llm.requests).toEqual([]);
    });

    it('answers unknown paths with an OpenAI-shaped 404', async () => {
      const llm = await start();
      const response = await fetch(`${llm.baseUrl}/embeddings`, { method: 'POST', body: '{}' });
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ error: { code: 'unknown_url' } });
    });

    it('runs as a CLI that prints its URL and stops on SIGTERM', async () => {
      const cli = fileURLToPath(new URL('./cli.ts', import.meta.url));
      const child = spawn(process.execPath, ['--import', 'tsx', cli, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
      try {
        const line = await new Promise<string>((resolve, reject) => {
          let out = '';
          child.stdout.on('data', (data: Buffer) => {
            out += data.toString();
            if (out.includes('\n')) resolve(out.trim());
          });
          child.once('exit', (code) => reject(new Error(`cli exited with ${code}`)));
        });
        expect(line).toMatch(/^fake-llm listening on http:\/\/127\.0\.0\.1:\d+\/v1$/);
        const baseUrl = line.replace('fake-llm listening on ', '');
        const models = (await (await fetch(`${baseUrl}/models`)).json()) as { data: unknown[] };
        expect(models.data).toHaveLength(2);
      } finally {
        const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        expect(await exited).toBe(0);
      }
    }, 20_000);
  });
});
