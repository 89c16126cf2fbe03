import { afterAll, afterEach, beforeAll, describe, expect, it, test, vi } from 'vitest';
import { startFakeLlm, type FakeLlm } from '../../tests/fake-llm/index.ts';
import type { ModelRequest } from '../engine/model-port.ts';
import type { Settings } from '../storage/settings-repo.ts';
import { modelFor, modelFromSettings } from './model-from-settings.ts';

let llm: FakeLlm;
beforeAll(async () => {
  llm = await startFakeLlm({ requireKey: 'sk-settings' });
});
afterEach(() => {
  llm.reset();
  vi.unstubAllGlobals();
});
afterAll(() => llm.close());

const request = (): ModelRequest => ({ messages: [{ role: 'user', content: 'hi' }], tools: [], signal: new AbortController().signal, onText: () => {} });

function settings(over: Partial<Settings> = {}): Settings {
  return { provider: 'custom', baseUrl: llm.baseUrl, apiKey: 'sk-settings', model: 'fake-model', expiryMinutes: null, notifications: true, badge: true, ...over };
}

describe('modelFromSettings', () => {
  it('asks for at most 4096 tokens per answer unless the settings say otherwise', async () => {
    llm.enqueue({ content: 'a' }, { content: 'b' });
    await (await modelFromSettings(settings())).complete(request());
    await (await modelFromSettings(settings({ maxTokens: 512 }))).complete(request());
    expect(llm.chatRequests().map((r) => r.body)).toMatchObject([{ max_tokens: 4096 }, { max_tokens: 512 }]);
    expect(llm.chatRequests().every((r) => r.headers.authorization === 'Bearer sk-settings')).toBe(true);
  });

  it('uses OpenAI’s own field, max_completion_tokens, for api.openai.com', async () => {
    const bodies: unknown[] = [];
    vi.stubGlobal('fetch', async (_input: RequestInfo | URL, init?: RequestInit) => {
      bodies.push(JSON.parse(String(init?.body)));
      return new Response('{"error":{"message":"stop here"}}', { status: 400, headers: { 'content-type': 'application/json' } });
    });
    await (await modelFromSettings(settings({ provider: 'openai', baseUrl: 'https://api.openai.com/v1', maxTokens: 1000 })))
      .complete(request())
      .catch(() => undefined);
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toMatchObject({ max_completion_tokens: 1000 });
    expect(bodies[0]).not.toHaveProperty('max_tokens');
  });

  it('sends the Anthropic preset’s direct-browser-access header, and no such header for other providers', async () => {
    llm.enqueue({ content: 'a' }, { content: 'b' });
    await (await modelFromSettings(settings({ provider: 'anthropic' }))).complete(request());
    await (await modelFromSettings(settings())).complete(request());
    const [anthropic, custom] = llm.chatRequests();
    expect(anthropic?.headers['anthropic-dangerous-direct-browser-access']).toBe('true');
    expect(custom?.headers).not.toHaveProperty('anthropic-dangerous-direct-browser-access');
  });

  it('sends the custom headers of its endpoint with chat completions and the models list, and none once another endpoint is set', async () => {
    llm.enqueue({ content: 'a' }, { content: 'b' });
    const withHeaders = settings({ headers: [{ name: 'X-Gateway-Token', value: 'gw-secret' }] });
    await (await modelFromSettings(withHeaders)).complete(request());
    await (await modelFromSettings(withHeaders)).listModels();
    // The settings of another origin carry none of these headers (readSettings gives each origin its own).
    await (await modelFromSettings(settings())).complete(request());
    const [chat, models, after] = llm.requests.filter((r) => r.method !== 'OPTIONS');
    expect([chat?.path, models?.path, after?.path]).toEqual(['/v1/chat/completions', '/v1/models', '/v1/chat/completions']);
    expect(chat?.headers['x-gateway-token']).toBe('gw-secret');
    expect(models?.headers['x-gateway-token']).toBe('gw-secret');
    expect(after?.headers).not.toHaveProperty('x-gateway-token');
  });

  it('keeps the preset’s required header over a custom one of the same name', async () => {
    llm.enqueue({ content: 'a' });
    const anthropic = settings({ provider: 'anthropic', headers: [{ name: 'anthropic-dangerous-direct-browser-access', value: 'false' }, { name: 'x-team', value: 't1' }] });
    await (await modelFromSettings(anthropic)).complete(request());
    const [chat] = llm.chatRequests();
    expect(chat?.headers['anthropic-dangerous-direct-browser-access']).toBe('true');
    expect(chat?.headers['x-team']).toBe('t1');
  });
});

const endpoint = { provider: 'custom', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-one', model: 'fake-model' };

describe('modelFor', () => {
  test('hands back the same model while the endpoint is unchanged (no new SDK client per call)', async () => {
    const first = await modelFor(endpoint);
    expect(await modelFor({ ...endpoint })).toBe(first);
  });

  test.each([
    ['provider', { provider: 'openai' }],
    ['base URL', { baseUrl: 'http://127.0.0.1:10/v1' }],
    ['API key', { apiKey: 'sk-two' }],
    ['model', { model: 'other-model' }],
    ['token limit', { maxTokens: 512 }],
  ])('builds a new one when the %s changes', async (_field, change) => {
    const before = await modelFor(endpoint);
    const changed = await modelFor({ ...endpoint, ...change });
    expect(changed).not.toBe(before);
    // And going back builds again: a key once replaced is not kept around.
    expect(await modelFor(endpoint)).not.toBe(changed);
  });

  test('the demo is cached like any endpoint, and apart from it', async () => {
    const demo = await modelFor({ provider: 'demo', baseUrl: '', apiKey: '', model: 'pausepoint-demo' });
    expect(await modelFor({ provider: 'demo', baseUrl: '', apiKey: '', model: 'pausepoint-demo' })).toBe(demo);
    expect(await modelFor(endpoint)).not.toBe(demo);
  });
});
