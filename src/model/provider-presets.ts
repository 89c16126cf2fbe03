/**
 * The endpoints Settings offers, with what each one needs. Plain data, no zod or
 * openai: the page's settings form and the backup's checks both read it.
 */
import type { Provider } from '../storage/settings-constants.ts';
import { DEMO_BASE_URL, DEMO_MODEL_ID } from './demo-endpoint.ts';

export type { Provider };

export interface ProviderPreset {
  label: string;
  /** Empty for Custom: the user types it. */
  baseUrl: string;
  /** A suggestion for the Model field; Test connection lists the real ones. */
  model: string;
  keyHint: string;
}

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
    model: DEMO_MODEL_ID,
    keyHint: '',
  },
};

export const PROVIDER_ORDER: readonly Provider[] = ['openai', 'openrouter', 'ollama', 'lmstudio', 'custom', 'demo'];
