import type { RulesPort } from './rules-port.ts';
import type { SettingsPort } from './settings-port.ts';

/** An engine given no settings: pause points never expire. */
export const NO_SETTINGS: SettingsPort = { expiryMs: async () => null };

/** A host that gave no rules port: no rules apply, and none can be made. */
export const NO_RULES: RulesPort = {
  load: async () => ({ rules: [], askForEverything: false }),
  markUsed: async () => {},
  put: async () => {
    throw new Error('This engine has no rules port: approval rules cannot be stored.');
  },
  remove: async () => {},
  recordDryRun: async () => {},
};
