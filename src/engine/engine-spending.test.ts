import { describe, expect, it } from 'vitest';
import type { SettingsPort } from './settings-port.ts';
import type { AssistantMessage, CallUsage } from './records/index.ts';
import { NO_LIMITS, type SpendingLimits } from './spending.ts';
import { harness, pending, say, state, tab } from './testing/harness.ts';

const used = (prompt: number, completion: number): CallUsage => ({ model: 'm', prompt, completion, cached: 0, reasoning: 0 });
const limits = (over: Partial<SpendingLimits>): SettingsPort => ({
  expiryMs: async () => null,
  spending: async () => ({ limits: { ...NO_LIMITS, ...over }, prices: [], model: 'm', spentToday: 0 }),
});

describe('usage', () => {
  it('stores each call’s usage on its answer and the per-model totals on the conversation', async () => {
    const h = harness([{ text: 'one', usage: used(100, 20) }, { text: 'two', usage: { ...used(150, 30), cached: 90, reasoning: 5 } }]);
    const id = await say(h, null, 'hi');
    await say(h, id, 'again');
    const answers = (await h.storage.listMessages(id)).filter((m): m is AssistantMessage => m.role === 'assistant');
    expect(answers.map((a) => a.usage)).toEqual([used(100, 20), { ...used(150, 30), cached: 90, reasoning: 5 }]);
    expect((await h.storage.getConversation(id))?.usage).toEqual([{ model: 'm', prompt: 250, completion: 50, cached: 90, reasoning: 5, calls: 2 }]);
  });
});

describe('limits that ask', () => {
  it('pauses before the call that would pass the token limit, with what was used, the limit and the estimate', async () => {
    const h = harness([{ text: 'first', usage: used(600, 100) }], { settings: limits({ tokensPerConversation: 1000 }) });
    const id = await say(h, null, 'hi');
    expect(h.model.requests).toHaveLength(1);

    // Used 700; the next prompt is estimated at 600 (the previous one): 1,300 would pass 1,000.
    await say(h, id, 'more');
    expect(h.model.requests).toHaveLength(1);
    const [card] = await pending(h, id);
    expect(card).toMatchObject({ origin: 'limit', kind: 'approval', title: 'Pass the token limit per conversation?', turnIndex: 1 });
    expect(card?.limit).toMatchObject({ kind: 'tokens', used: 700, max: 1000, estimate: 600, over: 300 });
    expect(card?.description).toContain('**700 tokens**');
    expect(card?.description).toContain('**1,000 tokens**');
    expect(card?.description).toContain('**600 tokens**');
    expect(card?.description).toContain('passed by about **300 tokens**');
    expect(await state(h, id)).toEqual({ kind: 'paused', pending: 1 });
  });

  it('Approve: the call goes ahead, and the model never sees the decision', async () => {
    const h = harness([{ text: 'first', usage: used(600, 100) }, { text: 'second', usage: used(650, 10) }], { settings: limits({ tokensPerConversation: 1000 }) });
    const id = await say(h, null, 'hi');
    await say(h, id, 'more');
    const [card] = await pending(h, id);
    expect(await h.engine.decide(card!.id, { type: 'approve' }, tab('tab-A'))).toEqual({ outcome: 'decided' });
    await h.engine.whenIdle();

    expect(h.model.requests).toHaveLength(2);
    expect(h.model.lastMessages().filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['hi', 'more']);
    const messages = await h.storage.listMessages(id);
    expect(messages.find((m) => m.role === 'notice')?.content).toBe('You allowed the next model call past the token limit per conversation: it may pass it by about 300 tokens.');
    expect(messages.at(-1)).toMatchObject({ role: 'assistant', content: 'second' });
    expect(await state(h, id)).toEqual({ kind: 'idle' });
  });

  it('Decline: the run stops, the conversation says why, and a new message asks again', async () => {
    const h = harness([{ text: 'first', usage: used(600, 100) }], { settings: limits({ tokensPerConversation: 1000 }) });
    const id = await say(h, null, 'hi');
    await say(h, id, 'more');
    const [card] = await pending(h, id);
    await h.engine.decide(card!.id, { type: 'decline', reason: 'too dear' }, tab('tab-A'));
    await h.engine.whenIdle();

    expect(h.model.requests).toHaveLength(1);
    expect(await state(h, id)).toEqual({ kind: 'idle' });
    const notices = (await h.storage.listMessages(id)).filter((m) => m.role === 'notice').map((m) => m.content);
    expect(notices).toEqual(['Stopped: you declined to pass the token limit per conversation, so the model was not called. (too dear)']);

    await say(h, id, 'please, one more');
    expect(h.model.requests).toHaveLength(1);
    expect(await pending(h, id)).toHaveLength(1);
  });

  it('point 10: what MCP sampling calls used, stored on the conversation, counts toward the limits like the answers', async () => {
    const h = harness([{ text: 'first', usage: used(100, 50) }, { text: 'second', usage: used(100, 10) }], { settings: limits({ tokensPerConversation: 1000 }) });
    const id = await say(h, null, 'hi');
    // Used 150 by the answer; the next prompt is estimated at 100: within 1,000 — but a sampling call spent 800 more.
    const conversation = await h.storage.getConversation(id);
    await h.storage.putConversation({ ...conversation!, sampled: [{ at: 2_000, usage: used(700, 100) }] });
    await say(h, id, 'more');
    expect(h.model.requests).toHaveLength(1);
    const [card] = await pending(h, id);
    expect(card?.limit).toMatchObject({ kind: 'tokens', used: 950, max: 1000, estimate: 100, over: 50 });
  });

  it('asks nothing within the limits, or with no limits at all', async () => {
    const h = harness([{ text: 'a', usage: used(100, 10) }, { text: 'b', usage: used(120, 10) }], { settings: limits({ tokensPerConversation: 10_000 }) });
    const id = await say(h, null, 'hi');
    await say(h, id, 'more');
    expect(h.model.requests).toHaveLength(2);
    expect(await h.storage.listPausePoints(id)).toEqual([]);
  });

  it('before any counted call, estimates the history’s characters / 4', async () => {
    const h = harness([{ text: 'never' }], { settings: limits({ tokensPerConversation: 50 }) });
    const id = await say(h, null, 'x'.repeat(400));
    expect(h.model.requests).toHaveLength(0);
    const [card] = await pending(h, id);
    expect(card?.limit?.used).toBe(0);
    expect(card?.limit?.estimate).toBeGreaterThan(100);
  });
});
