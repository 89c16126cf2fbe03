import type { PROVIDERS } from '../../storage/settings-repo.ts';

export type Provider = (typeof PROVIDERS)[number];

export interface ProviderPreset {
  label: string;
  /** Empty for Custom: the user types it. */
  baseUrl: string;
  /** A suggestion for the Model field; Test connection lists the real ones. */
  model: string;
  keyHint: string;
}

/**
 * Where the demo model "lives": the same reserved, never-resolving host as
 * `DEMO_BASE_URL` in src/model/demo-model.ts (not imported: that module pulls the
 * openai SDK into the page, which only the worker needs).
 */
export const DEMO_BASE_URL = 'https://demo.pausepoint.invalid/v1';
export const DEMO_MODEL = 'pausepoint-demo';

export const PROVIDER_PRESETS: Readonly<Record<Provider, ProviderPreset>> = {
  openai: { label: 'OpenAI', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini', keyHint: 'A key from your OpenAI account (sk-…).' },
  openrouter: {
    label: 'OpenRouter',
    baseUrl: 'https://openrouter.ai/api/v1',
    model: 'openai/gpt-4o-mini',
    keyHint: 'An OpenRouter key (sk-or-…).',
  },
  ollama: {
    label: 'Ollama on this machine',
    baseUrl: 'http://localhost:11434/v1',
    model: '',
    keyHint: 'Not needed. Start Ollama with OLLAMA_ORIGINS=* so this page may call it.',
  },
  lmstudio: {
    label: 'LM Studio',
    baseUrl: 'http://localhost:1234/v1',
    model: '',
    keyHint: 'Not needed. Enable CORS in LM Studio’s server settings.',
  },
  custom: { label: 'Custom (OpenAI-compatible)', baseUrl: '', model: '', keyHint: 'Whatever your endpoint expects, if anything.' },
  demo: {
    label: 'Demo model — scripted, offline, no key needed',
    baseUrl: DEMO_BASE_URL,
    model: DEMO_MODEL,
    keyHint: '',
  },
};

export const PROVIDER_ORDER: readonly Provider[] = ['openai', 'openrouter', 'ollama', 'lmstudio', 'custom', 'demo'];

export const EXPIRY_CHOICES: readonly { label: string; minutes: number | null }[] = [
  { label: 'Never', minutes: null },
  { label: 'After 15 minutes', minutes: 15 },
  { label: 'After 1 hour', minutes: 60 },
  { label: 'After 24 hours', minutes: 24 * 60 },
  { label: 'After 7 days', minutes: 7 * 24 * 60 },
];
