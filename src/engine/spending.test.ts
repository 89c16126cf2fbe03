import { describe, expect, it } from 'vitest';
import { buildRequest } from './build-request.ts';
import type { CallUsage, Message } from './records/index.ts';
import { checkLimits, costOf, estimatePromptTokens, NO_LIMITS, type SpendingSettings } from './spending.ts';

const user = (seq: number, content: string): Message => ({ v: 1, id: `u${seq}`, conversationId: 'c', seq, createdAt: seq, role: 'user', content });
const answer = (seq: number, usage?: CallUsage): Message => ({
  v: 1,
  id: `a${seq}`,
  conversationId: 'c',
  seq,
  createdAt: seq,
  role: 'assistant',
  content: 'ok',
  toolCalls: [],
  turnIndex: seq,
  status: 'complete',
  ...(usage ? { usage } : {}),
});
const used = (prompt: number, completion: number, model = 'm', cached = 0): CallUsage => ({ model, prompt, completion, cached, reasoning: 0 });
const spending = (over: Partial<SpendingSettings['limits']>, rest: Partial<SpendingSettings> = {}): SpendingSettings => ({
  limits: { ...NO_LIMITS, ...over },
  prices: [{ model: 'm', input: 2, output: 8, cached: 0.5 }],
  model: 'm',
  spentToday: 0,
  ...rest,
});

describe('estimatePromptTokens', () => {
  it('before any counted call, is the characters of what would be sent divided by four, rounded up', () => {
    const history = [user(0, 'x'.repeat(401))];
    const characters = buildRequest(history).reduce((n, m) => n + (typeof m.content === 'string' ? m.content.length : 0), 0);
    expect(estimatePromptTokens(history)).toBe(Math.ceil(characters / 4));
    expect(characters).toBeGreaterThan(401);
  });

  it('after a counted call, is that call’s prompt tokens', () => {
    expect(estimatePromptTokens([user(0, 'hi'), answer(1, used(1234, 50)), user(2, 'again')])).toBe(1234);
    expect(estimatePromptTokens([user(0, 'hi'), answer(1, used(1234, 50)), answer(2, used(1500, 10)), user(3, 'x')])).toBe(1500);
  });
});

describe('costOf', () => {
  it('prices uncached input, cached input and output per million tokens', () => {
    const prices = [{ model: 'm', input: 2, output: 8, cached: 0.5 }];
    expect(costOf(used(1_000_000, 500_000, 'm', 400_000), prices)).toBeCloseTo(0.6 * 2 + 0.4 * 0.5 + 0.5 * 8);
    expect(costOf(used(1_000_000, 0, 'm', 1_000_000), [{ model: 'm', input: 2, output: 8 }])).toBe(2);
    expect(costOf(used(1_000_000, 1_000_000, 'other'), prices)).toBe(0);
  });
});

describe('checkLimits', () => {
  const history = [user(0, 'hi'), answer(1, used(600, 100)), user(2, 'more')];

  it('empty limits never trip', () => {
    expect(checkLimits(history, spending({}))).toBeNull();
  });

  it('trips the token limit when used + estimate would pass it, and says by how much', () => {
    // Used 700, estimate 600 (the previous prompt): 1,300.
    expect(checkLimits(history, spending({ tokensPerConversation: 1300 }))).toBeNull();
    expect(checkLimits(history, spending({ tokensPerConversation: 1000 }))).toEqual({ limit: 'tokens', used: 700, max: 1000, estimate: 600, over: 300 });
  });

  it('trips the money limit at the entered prices, and never for a model without a price', () => {
    // Used 600 × 2 + 100 × 8 = 2,000 per million = 0.002; estimate 600 × 2 / 1e6 = 0.0012.
    const breach = checkLimits(history, spending({ costPerConversation: 0.003 }));
    expect(breach).toMatchObject({ limit: 'cost', max: 0.003 });
    expect(breach?.used).toBeCloseTo(0.002);
    expect(breach?.estimate).toBeCloseTo(0.0012);
    expect(breach?.over).toBeCloseTo(0.0002);
    expect(checkLimits(history, spending({ costPerConversation: 0.0033 }))).toBeNull();
    expect(checkLimits(history, spending({ costPerConversation: 0.000001 }, { prices: [] }))).toBeNull();
  });

  it('trips the daily limit with what every conversation spent today', () => {
    expect(checkLimits(history, spending({ costPerDay: 1 }, { spentToday: 0.5 }))).toBeNull();
    expect(checkLimits(history, spending({ costPerDay: 1 }, { spentToday: 0.9995 }))).toMatchObject({ limit: 'day', used: 0.9995, max: 1 });
  });
});
