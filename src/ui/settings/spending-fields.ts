import type { Settings } from '../../storage/settings-repo.ts';

export type SpendingFields = Pick<Settings, 'tokenLimit' | 'costLimit' | 'dailyCostLimit' | 'prices'>;

/** The settings the Usage and limits panel edits, as stored; absent ones stay absent. */
export function spendingFields(settings: Settings | undefined): SpendingFields {
  if (!settings) return {};
  const { tokenLimit, costLimit, dailyCostLimit, prices } = settings;
  return {
    ...(tokenLimit === undefined ? {} : { tokenLimit }),
    ...(costLimit === undefined ? {} : { costLimit }),
    ...(dailyCostLimit === undefined ? {} : { dailyCostLimit }),
    ...(prices === undefined ? {} : { prices }),
  };
}

/** The settings without the panel's fields, so that a save can set exactly the ones given. */
export function withoutSpending(settings: Settings): Omit<Settings, keyof SpendingFields> {
  const { tokenLimit: _t, costLimit: _c, dailyCostLimit: _d, prices: _p, ...rest } = settings;
  return rest;
}
