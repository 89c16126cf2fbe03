import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { ToolContext } from '../engine/ports.ts';
import { createHttpRequestTool, httpGate, HttpRequestInput, type HttpRequestArgs } from './http-request.ts';

function contextWith(signal: AbortSignal = new AbortController().signal): ToolContext {
  return {
    conversationId: 'conv-1',
    toolCallId: 'call-1',
    turnIndex: 0,
    signal,
    pause: () => Promise.reject(new Error('http_request never pauses itself')),
    ask: () => Promise.reject(new Error('http_request never asks while it runs')),
  };
}

const args = (raw: unknown): HttpRequestArgs => HttpRequestInput.parse(raw);

describe('http_request input', () => {
  it('accepts the six methods with http and https URLs', () => {
    for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']) {
      expect(HttpRequestInput.safeParse({ method, url: 'https://example.com/x' }).success).toBe(true);
    }
    expect(HttpRequestInput.safeParse({ method: 'POST', url: 'http://localhost:8080/a', headers: { a: 'b' }, body: '{}' }).success).toBe(true);
  });

  it('refuses other methods, other schemes, non-string headers and a body on GET', () => {
    expect(HttpRequestInput.safeParse({ method: 'TRACE', url: 'https://example.com' }).success).toBe(false);
    expect(HttpRequestInput.safeParse({ method: 'get', url: 'https://example.com' }).success).toBe(false);
    for (const url of ['ftp://example.com/f', 'javascript:alert(1)', 'file:///etc/passwd', 'example.com']) {
      expect(HttpRequestInput.safeParse({ method: 'GET', url }).success).toBe(false);
    }
    expect(HttpRequestInput.safeParse({ method: 'GET', url: 'https://example.com', headers: { n: 1 } }).success).toBe(false);
    expect(HttpRequestInput.safeParse({ method: 'GET', url: 'https://example.com', body: 'x' }).success).toBe(false);
  });

  it('converts to JSON Schema with described fields', () => {
    const schema = z.toJSONSchema(HttpRequestInput) as { properties: Record<string, { description?: string }>; required: string[] };
    expect(schema.required).toEqual(['method', 'url']);
    for (const field of ['method', 'url', 'headers', 'body']) expect(schema.properties[field]?.description).toBeTruthy();
  });
});

describe('http_request gate', () => {
  it('lets GET and HEAD run', () => {
    expect(httpGate(args({ method: 'GET', url: 'https://example.com/a' }))).toBeNull();
    expect(httpGate(args({ method: 'HEAD', url: 'https://example.com/a' }))).toBeNull();
    expect(createHttpRequestTool().gate).toBe(httpGate);
  });

  it('asks before POST, showing method, URL, headers and body', () => {
    const question = httpGate(
      args({ method: 'POST', url: 'https://example.com:8443/api/orders?x=1', headers: { 'content-type': 'application/json' }, body: '{"item":"beans"}' }),
    );
    expect(question?.title).toBe('POST to example.com:8443');
    expect(question?.description).toContain('https://example.com:8443/api/orders?x=1');
    expect(question?.description).toContain('content-type: application/json');
    expect(question?.description).toContain('{"item":"beans"}');
  });

  it('asks before DELETE, PUT and PATCH too', () => {
    for (const method of ['DELETE', 'PUT', 'PATCH']) {
      expect(httpGate(args({ method, url: 'https://api.example.org/x/1' }))?.title).toBe(`${method} to api.example.org`);
    }
  });

  it('previews a long body, and a body cannot break out of its code block', () => {
    const body = '```\n# injected heading\n' + 'x'.repeat(5000);
    const description = httpGate(args({ method: 'PUT', url: 'https://example.com', body }))?.description ?? '';
    expect(description).toContain('````text');
    expect(description).toContain('more characters');
    expect(description.length).toBeLessThan(2000);
  });
});

describe('http_request execute', () => {
  it('reports status, content type and body, sending no cookies', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(async () => new Response('{"ok":true}', { status: 201, statusText: 'Created', headers: { 'content-type': 'application/json' } }));
    const tool = createHttpRequestTool({ fetch });
    const result = await tool.execute(args({ method: 'POST', url: 'https://example.com/a', headers: { 'x-a': '1' }, body: 'hi' }), contextWith());

    expect(result).toBe('HTTP 201 Created\ncontent-type: application/json\n\n{"ok":true}');
    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(url).toBe('https://example.com/a');
    expect(init).toMatchObject({ method: 'POST', headers: { 'x-a': '1' }, body: 'hi', credentials: 'omit' });
    expect(init?.signal).toBeInstanceOf(AbortSignal);
  });

  it('cuts a long response at 8,000 characters and says so', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(async () => new Response('a'.repeat(12_345), { status: 200, headers: { 'content-type': 'text/plain' } }));
    const result = await createHttpRequestTool({ fetch }).execute(args({ method: 'GET', url: 'https://example.com' }), contextWith());
    const [head, body = ''] = result.split('\n\n');
    expect(head).toBe('HTTP 200\ncontent-type: text/plain');
    expect(body.startsWith('a'.repeat(8000) + '\n')).toBe(true);
    expect(body).toContain('[response truncated: 8000 of 12345 characters shown]');
  });

  it('turns a network or CORS failure into a readable result', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(async () => {
      throw new TypeError('Failed to fetch');
    });
    const result = await createHttpRequestTool({ fetch }).execute(args({ method: 'GET', url: 'https://example.com' }), contextWith());
    expect(result).toMatch(/^Request failed: the server could not be reached or refused a cross-origin request \(CORS\)\./);
  });

  it('gives up after the timeout with a readable result', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(
      (_input, init) => new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason))),
    );
    const result = await createHttpRequestTool({ fetch, timeoutMs: 50 }).execute(args({ method: 'GET', url: 'https://slow.example.com' }), contextWith());
    expect(result).toBe('Request failed: no complete response from slow.example.com within 0.05 s.');
  });

  it('lets a stopped run abort the request instead of reporting a failure', async () => {
    const controller = new AbortController();
    const fetch = vi.fn<typeof globalThis.fetch>(
      (_input, init) => new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason))),
    );
    const running = createHttpRequestTool({ fetch }).execute(args({ method: 'GET', url: 'https://example.com' }), contextWith(controller.signal));
    controller.abort();
    await expect(running).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('uses the global fetch by default, looked up at call time', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(async () => new Response(null, { status: 204, statusText: 'No Content' }));
    vi.stubGlobal('fetch', fetch);
    try {
      const result = await createHttpRequestTool().execute(args({ method: 'HEAD', url: 'https://example.com' }), contextWith());
      expect(result).toBe('HTTP 204 No Content\ncontent-type: (none)\n\n');
      expect(fetch).toHaveBeenCalledOnce();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
