import { describe, expect, it } from 'vitest';
import { usageText } from './usage-text.ts';

const call = { model: 'm', prompt: 1200, completion: 56, cached: 1000, reasoning: 0 };

describe('usageText', () => {
  it('says tokens in (cached) and out, and no cost without a price', () => {
    expect(usageText([call], [])).toBe('1,200 tokens in (1,000 cached) · 56 out');
  });

  it('adds the cost once the model has a price', () => {
    // 200 × 1 + 1000 × 0.5 + 56 × 4 = 924 per million.
    expect(usageText([call], [{ model: 'm', input: 1, output: 4, cached: 0.5 }])).toBe('1,200 tokens in (1,000 cached) · 56 out · cost 0.0009');
  });

  it('leaves the cost out when any model involved has no price', () => {
    expect(usageText([call, { ...call, model: 'other' }], [{ model: 'm', input: 1, output: 4 }])).not.toContain('cost');
  });
});
