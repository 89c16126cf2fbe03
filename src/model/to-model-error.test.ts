import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { describe, expect, it } from 'vitest';
import { ModelError } from '../engine/errors.ts';
import { toModelError } from './to-model-error.ts';

function apiError(status: number, body: object | undefined, headers: Record<string, string> = {}, text?: string): APIError {
  return APIError.generate(status, body === undefined ? undefined : { error: body }, text, new Headers(headers));
}

describe('toModelError', () => {
  it('keeps a ModelError as it is', () => {
    const error = new ModelError('server', 'x', 500);
    expect(toModelError(error)).toBe(error);
  });

  it('treats anything after the caller aborted as aborted', () => {
    const controller = new AbortController();
    controller.abort();
    expect(toModelError(new TypeError('terminated'), { signal: controller.signal, streaming: true }).kind).toBe('aborted');
    expect(toModelError(new APIUserAbortError()).kind).toBe('aborted');
  });

  it('tells timeouts from other connection failures', () => {
    expect(toModelError(new APIConnectionTimeoutError(), { timeoutMs: 60_000 })).toMatchObject({ kind: 'timeout' });
    expect(toModelError(new APIConnectionTimeoutError(), { timeoutMs: 60_000 }).message).toContain('60 s');
    expect(toModelError(new APIConnectionError({ message: 'Connection error.' })).kind).toBe('network');
  });

  it('does not retry an exhausted quota, which is also a 429', () => {
    const error = toModelError(apiError(429, { message: 'You exceeded your current quota', code: 'insufficient_quota' }));
    expect(error).toMatchObject({ kind: 'auth', status: 429, retryable: false });
    expect(error.message).toContain('billing');
  });

  it('reads retry-after-ms on 429, and retry-after on 503', () => {
    expect(toModelError(apiError(429, { message: 'slow down' }, { 'retry-after-ms': '1200' })).retryAfterMs).toBe(1200);
    expect(toModelError(apiError(503, { message: 'busy' }, { 'retry-after': '2' }))).toMatchObject({ kind: 'server', retryAfterMs: 2000 });
  });

  it('maps 408 to timeout and other 4xx to bad_request', () => {
    expect(toModelError(apiError(408, { message: 'late' })).kind).toBe('timeout');
    expect(toModelError(apiError(413, { message: 'too large' })).kind).toBe('bad_request');
  });

  it('quotes a non-JSON error body on one short line', () => {
    const html = `<html>\n<body>${'Bad gateway '.repeat(100)}</body></html>`;
    const error = toModelError(apiError(502, undefined, {}, html));
    expect(error.kind).toBe('server');
    expect(error.message).not.toContain('\n');
    expect(error.message.length).toBeLessThan(500);
    expect(error.message).not.toMatch(/\(502\): 502/);
  });

  it('maps failures once the stream has started to dropped, including error events the endpoint sends', () => {
    expect(toModelError(new TypeError('terminated'), { streaming: true }).kind).toBe('dropped');
    const midStream = new APIError(undefined, { message: 'upstream provider failed' }, undefined, new Headers());
    const error = toModelError(midStream, { streaming: true });
    expect(error.kind).toBe('dropped');
    expect(error.message).toContain('upstream provider failed');
  });
});
