import { describe, expect, it } from 'vitest';
import { KNOWN_PRICES } from '../model/known-prices.ts';
import { DEFAULT_MAX_TOKENS } from '../storage/settings-constants.ts';
import { stricterSettings, type SpendingBounds } from './stricter-settings.ts';

const base: SpendingBounds & { provider: string; model: string } = { provider: 'custom', model: 'm' };

describe('stricterSettings', () => {
  it('keeps a limit the backup drops or raises, and takes one it lowers', () => {
    const here = { tokenLimit: 50_000, costLimit: 2, dailyCostLimit: 5 };
    const { settings, kept } = stricterSettings({ ...base, costLimit: 20, dailyCostLimit: 1 }, here);
    expect(settings).toEqual({ ...base, tokenLimit: 50_000, costLimit: 2, dailyCostLimit: 1 });
    expect(kept).toEqual([
      { setting: 'tokenLimit', kept: 50_000, backup: null },
      { setting: 'costLimit', kept: 2, backup: 20 },
    ]);
  });

  it('keeps a lower Max tokens per answer, the default one included', () => {
    expect(stricterSettings({ ...base, maxTokens: 1_000_000 }, { maxTokens: 2_000 })).toEqual({
      settings: { ...base, maxTokens: 2_000 },
      kept: [{ setting: 'maxTokens', kept: 2_000, backup: 1_000_000 }],
    });
    // Unset here is the default: the backup's higher value is left out, so the default applies.
    expect(stricterSettings({ ...base, maxTokens: 32_000 }, {})).toEqual({
      settings: base,
      kept: [{ setting: 'maxTokens', kept: DEFAULT_MAX_TOKENS, backup: 32_000 }],
    });
    expect(stricterSettings({ ...base, maxTokens: 1_000 }, { maxTokens: 2_000 })).toEqual({ settings: { ...base, maxTokens: 1_000 }, kept: [] });
  });

  it('keeps every price the backup zeroes, lowers or drops, field by field; adds the backup’s other models', () => {
    const here = { prices: [{ model: 'a', input: 1, output: 2 }, { model: 'b', input: 3, output: 4, cached: 1 }, { model: 'c', input: 5, output: 6 }] };
    const backup = { ...base, prices: [{ model: 'a', input: 0, output: 0 }, { model: 'b', input: 5, output: 1 }, { model: 'd', input: 7, output: 8 }] };
    const { settings, kept } = stricterSettings(backup, here);
    expect(settings.prices).toEqual([
      { model: 'a', input: 1, output: 2 },
      // The backup's higher input stays, with here's higher output; cached was billed as input (5) there, above 1.
      { model: 'b', input: 5, output: 4 },
      { model: 'c', input: 5, output: 6 },
      { model: 'd', input: 7, output: 8 },
    ]);
    expect(kept).toEqual([
      { setting: 'price', model: 'a' },
      { setting: 'price', model: 'b' },
      { setting: 'price', model: 'c' },
    ]);
  });

  it('reads absent prices as the prefilled ones on both sides', () => {
    // Nothing saved on either side: nothing to keep, and the backup's absent list stays absent.
    expect(stricterSettings(base, {})).toEqual({ settings: base, kept: [] });
    // The backup zeroes a prefilled price this browser still uses.
    const { settings, kept } = stricterSettings({ ...base, prices: KNOWN_PRICES.map((p) => (p.model === 'gpt-4o' ? { model: 'gpt-4o', input: 0, output: 0 } : p)) }, {});
    expect(kept).toEqual([{ setting: 'price', model: 'gpt-4o' }]);
    expect(settings.prices?.find((p) => p.model === 'gpt-4o')).toEqual(KNOWN_PRICES.find((p) => p.model === 'gpt-4o'));
  });

  it('changes nothing when the backup is as strict or stricter, or when this browser has no settings yet', () => {
    const here = { tokenLimit: 10, maxTokens: 100, prices: [{ model: 'a', input: 1, output: 1 }] };
    const backup = { ...base, tokenLimit: 5, maxTokens: 50, prices: [{ model: 'a', input: 2, output: 1, cached: 1 }] };
    expect(stricterSettings(backup, here)).toEqual({ settings: backup, kept: [] });
    const loose = { ...base, maxTokens: 1_000_000, prices: [] };
    expect(stricterSettings(loose, undefined)).toEqual({ settings: loose, kept: [] });
  });
});
