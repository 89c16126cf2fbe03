/**
 * Plain constants of the stored settings, apart from the zod schema so the page
 * can read settings (`live-settings.ts`) without loading zod.
 */

/** The endpoints the settings can name. */
export const PROVIDERS = [
  'openai',
  'openrouter',
  'anthropic',
  'gemini',
  'groq',
  'mistral',
  'deepseek',
  'together',
  'ollama',
  'lmstudio',
  'custom',
  'demo',
] as const;
export type Provider = (typeof PROVIDERS)[number];

/** The key of the one row that holds all settings (see settings-repo.ts). */
export const SETTINGS_KEY = 'settings';

/** Max tokens per answer when the user has not chosen: a long answer, yet a bound on what one can cost. */
export const DEFAULT_MAX_TOKENS = 4096;
/**
 * The most characters Settings' custom instructions may hold. They go with every
 * model call, so they cost tokens on each: a page of standing instructions, not a
 * pasted document. The same as a conversation's own (`MAX_INSTRUCTIONS_CHARS` in
 * src/engine/records/conversation.ts, which cannot import storage; a test keeps them equal).
 */
export const MAX_CUSTOM_INSTRUCTIONS_CHARS = 8_000;
/** Far above any model's output limit: a bound against typing errors, not a policy. */
export const MAX_TOKENS_LIMIT = 1_000_000;
