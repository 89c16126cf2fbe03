/**
 * The endpoints Settings offers, with what each one needs. Plain data, no zod or
 * openai: the page's settings form and the backup's checks both read it.
 */
import { PROVIDERS, type Provider } from '../storage/settings-constants.ts';
import { DEMO_BASE_URL, DEMO_MODEL_ID } from './demo-endpoint.ts';

export type { Provider };

export interface ProviderPreset {
  label: string;
  /** Empty for Custom: the user types it. */
  baseUrl: string;
  /** A suggestion for the Model field; Test connection lists the real ones. */
  model: string;
  keyHint: string;
  /**
   * Headers every request to this provider carries, beside the key. Anthropic
   * answers a browser (CORS) only when the request says it knows the key is
   * exposed to the page: here it is the user's own key, typed into this browser.
   */
  headers?: Readonly<Record<string, string>>;
}

export const PROVIDER_PRESETS: Readonly<Record<Provider, ProviderPreset>> = {
  openai: { label: 'OpenAI', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini', keyHint: 'A key from your OpenAI account (sk-…).' },
  openrouter: {
    label: 'OpenRouter',
    baseUrl: 'https://openrouter.ai/api/v1',
    model: 'openai/gpt-4o-mini',
    keyHint: 'An OpenRouter key (sk-or-…).',
  },
  anthropic: {
    label: 'Anthropic',
    baseUrl: 'https://api.anthropic.com/v1/',
    model: 'claude-sonnet-4-5',
    keyHint: 'A key from the Claude Console (sk-ant-…).',
    headers: { 'anthropic-dangerous-direct-browser-access': 'true' },
  },
  gemini: {
    label: 'Google Gemini',
    baseUrl: 'https://generativelanguage.googleapis.com/v1beta/openai/',
    model: 'gemini-2.5-flash',
    keyHint: 'A Gemini API key from Google AI Studio.',
  },
  groq: { label: 'Groq', baseUrl: 'https://api.groq.com/openai/v1', model: 'llama-3.3-70b-versatile', keyHint: 'A Groq key (gsk_…).' },
  mistral: { label: 'Mistral', baseUrl: 'https://api.mistral.ai/v1', model: 'mistral-small-latest', keyHint: 'A key from Mistral’s console.' },
  deepseek: { label: 'DeepSeek', baseUrl: 'https://api.deepseek.com/v1', model: 'deepseek-chat', keyHint: 'A DeepSeek key (sk-…).' },
  together: {
    label: 'Together',
    baseUrl: 'https://api.together.xyz/v1',
    model: 'meta-llama/Llama-3.3-70B-Instruct-Turbo',
    keyHint: 'A Together key.',
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

/** The order the provider picker lists them in: the schema's own. */
export const PROVIDER_ORDER: readonly Provider[] = PROVIDERS;

/** The headers a provider's requests carry besides the key (none for most). */
export function presetHeaders(provider: string): Readonly<Record<string, string>> {
  return (Object.hasOwn(PROVIDER_PRESETS, provider) && PROVIDER_PRESETS[provider as Provider].headers) || {};
}
