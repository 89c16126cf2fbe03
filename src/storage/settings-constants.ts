/**
 * Plain constants of the stored settings, apart from the zod schema so the page
 * can read settings (`live-settings.ts`) without loading zod.
 */

/** The endpoints the settings can name. */
export const PROVIDERS = ['openai', 'openrouter', 'ollama', 'lmstudio', 'custom', 'demo'] as const;
export type Provider = (typeof PROVIDERS)[number];

/** The key of the one row that holds all settings (see settings-repo.ts). */
export const SETTINGS_KEY = 'settings';
