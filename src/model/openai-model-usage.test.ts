import { afterEach, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '../../tests/fake-llm/index.ts';
import type { ModelRequest } from '../engine/model-port.ts';
import { OpenAIModel } from './openai-model.ts';
import { refusesStreamOptions, StreamOptionsRefusals } from './stream-options-refusals.ts';

const servers: FakeLlm[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function server(options: { refuseStreamOptions?: boolean } = {}): Promise<FakeLlm> {
  const llm = await startFakeLlm(options);
  servers.push(llm);
  return llm;
}

const request = (): ModelRequest => ({ messages: [{ role: 'user', content: 'hi' }], tools: [], signal: new AbortController().signal, onText: () => {} });
const tokens = { prompt: 120, completion: 30, cached: 100, reasoning: 12 };

describe('OpenAIModel usage', () => {
  it('asks for usage in the stream and returns it, cached and reasoning tokens included, with the model id', async () => {
    const llm = await server();
    llm.enqueue({ content: 'counted', tokens });
    const result = await new OpenAIModel({ baseUrl: llm.baseUrl, apiKey: 'k', model: 'fake-model', refusals: new StreamOptionsRefusals() }).complete(request());
    expect(llm.chatRequests()[0]?.body.stream_options).toEqual({ include_usage: true });
    expect(result.usage).toEqual({ model: 'fake-model', prompt: 120, completion: 30, cached: 100, reasoning: 12 });
  });

  it('falls back silently when an endpoint refuses stream_options, and remembers that for this endpoint only', async () => {
    const refusing = await server({ refuseStreamOptions: true });
    const other = await server();
    const refusals = new StreamOptionsRefusals();
    refusing.enqueue({ content: 'first', usage: true, tokens }, { content: 'second' });
    other.enqueue({ content: 'elsewhere' });
    const model = new OpenAIModel({ baseUrl: refusing.baseUrl, apiKey: 'k', model: 'fake-model', refusals });

    const first = await model.complete(request());
    expect(first.content).toBe('first');
    // The fake's trailing usage chunk, sent unasked (`usage: true`), is still read.
    expect(first.usage?.prompt).toBe(120);
    const second = await new OpenAIModel({ baseUrl: `${refusing.baseUrl}/`, apiKey: 'k', model: 'fake-model', refusals }).complete(request());
    expect(second.content).toBe('second');
    expect(second.usage).toBeUndefined();
    await new OpenAIModel({ baseUrl: other.baseUrl, apiKey: 'k', model: 'fake-model', refusals }).complete(request());

    // Refused once, retried without it; the next request (a new model for the same endpoint) never asks again.
    expect(refusing.chatRequests().map((r) => r.body.stream_options)).toEqual([{ include_usage: true }, undefined, undefined]);
    expect(other.chatRequests()[0]?.body.stream_options).toEqual({ include_usage: true });
  });

  it('judges a refusal by status and by naming stream_options', () => {
    expect(refusesStreamOptions(400, 'Unrecognized request argument supplied: stream_options')).toBe(true);
    expect(refusesStreamOptions(422, 'extra field include_usage not permitted')).toBe(true);
    expect(refusesStreamOptions(400, 'messages: field required')).toBe(false);
    expect(refusesStreamOptions(401, 'stream_options')).toBe(false);
    expect(refusesStreamOptions(500, 'stream_options')).toBe(false);
    expect(refusesStreamOptions(undefined, 'stream_options')).toBe(false);
  });
});
