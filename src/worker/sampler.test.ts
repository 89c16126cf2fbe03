import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
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
});
