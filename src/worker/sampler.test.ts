import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CallUsage } from '../engine/records/index.ts';
import { makeConversation } from '../engine/testing/make-records.ts';
import type { PausepointDb } from '../storage/db.ts';
import { saveSettings } from '../storage/settings-repo.ts';
import { useTestDb } from '../storage/testing/open-test-db.ts';
import { samplerOver } from './sampler.ts';

const OLLAMA = { provider: 'ollama', baseUrl: 'http://localhost:11434/v1', apiKey: '', model: 'llama3.2' } as const;
const used = (prompt: number, completion: number): CallUsage => ({ model: 'llama3.2', prompt, completion, cached: 0, reasoning: 0 });
const ask = [{ role: 'user' as const, content: 'x'.repeat(400) }];

describe('the worker’s sampler', () => {
  let db: PausepointDb;
  useTestDb((fresh) => (db = fresh));

  it('point 10: says on the card when a request would pass a limit, counting the conversation’s earlier sampling calls', async () => {
    await saveSettings(db, { ...OLLAMA, tokenLimit: 1000 });
    await db.conversations.put(makeConversation({ id: 'c1' }));
    const sampler = samplerOver(db);
    // Nothing used yet; the request's prompt is about 100 tokens: within the limit.
    expect(await sampler.limitNotice?.({ conversationId: 'c1', messages: ask })).toBeNull();

    // Earlier sampling calls spent 950: this one would pass 1,000 by about 50.
    await db.conversations.put(makeConversation({ id: 'c1', sampled: [{ at: 1, usage: used(900, 50) }] }));
    const notice = await sampler.limitNotice?.({ conversationId: 'c1', messages: ask });
    expect(notice).toContain('This request would pass your token limit per conversation');
    expect(notice).toContain('**950 tokens** of **1,000 tokens**');
    expect(notice).toContain('about **50 tokens** over');
  });

  describe('its model call', () => {
    afterEach(() => vi.unstubAllGlobals());

    /** The endpoint as fetch sees it: each request's body kept, each answered with a streamed "Hi." that used 12 + 3 tokens. */
    function endpoint() {
      const bodies: Record<string, unknown>[] = [];
      const encoder = new TextEncoder();
      const event = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`;
      vi.stubGlobal('fetch', async (_url: unknown, init?: RequestInit) => {
        bodies.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
        const events = [
          event({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'llama3.2', choices: [{ index: 0, delta: { role: 'assistant', content: 'Hi.' }, finish_reason: null }] }),
          event({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'llama3.2', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }),
          event({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'llama3.2', choices: [], usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 } }),
          'data: [DONE]\n\n',
        ];
        return new Response(new ReadableStream({ start: (c) => (events.forEach((e) => c.enqueue(encoder.encode(e))), c.close()) }), {
          status: 200,
          headers: { 'content-type': 'text/event-stream' },
        });
      });
      return bodies;
    }

    it('point 17: sends the smaller of the server’s cap and the user’s Max tokens per answer; point 10: stores what it used on the conversation', async () => {
      // An endpoint no other test used: the SDK client takes the global fetch when it is built.
      await saveSettings(db, { ...OLLAMA, baseUrl: 'http://localhost:11977/v1', maxTokens: 20 });
      await db.conversations.put(makeConversation({ id: 'c1' }));
      const bodies = endpoint();
      const sampler = samplerOver(db, () => 7_000);
      const signal = new AbortController().signal;

      expect(await sampler({ conversationId: 'c1', messages: ask, maxTokens: 50, signal })).toMatchObject({ text: 'Hi.', maxTokens: 20, usage: used(12, 3) });
      expect(await sampler({ conversationId: 'c1', messages: ask, maxTokens: 7, signal })).toMatchObject({ maxTokens: 7 });
      expect(bodies.map((b) => b.max_tokens)).toEqual([20, 7]);

      const stored = await db.conversations.get('c1');
      expect(stored?.sampled).toEqual([{ at: 7_000, usage: used(12, 3) }, { at: 7_000, usage: used(12, 3) }]);
      expect(stored?.usage).toEqual([{ ...used(24, 6), calls: 2 }]);
    });
  });
});
