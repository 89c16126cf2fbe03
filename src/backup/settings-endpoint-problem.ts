import { PROVIDER_PRESETS } from '../model/provider-presets.ts';
import type { BackupSettings } from './backup-format.ts';

/**
 * Why a backup's settings may not be restored, or undefined: a provider other
 * than Custom must point at that provider's own address. Settings that say
 * "OpenAI" but send requests to some other host would have the user type their
 * OpenAI key into a form that sends it there; only Custom names an address of
 * the user's choosing, and says so.
 */
export function settingsEndpointProblem(settings: BackupSettings): string | undefined {
  if (settings.provider === 'custom') return undefined;
  const preset = PROVIDER_PRESETS[settings.provider];
  if (withoutTrailingSlash(settings.baseUrl) === withoutTrailingSlash(preset.baseUrl)) return undefined;
  return (
    `they name ${preset.label} as the provider but its Base URL is ${clip(settings.baseUrl)}, not ${preset.baseUrl}. ` +
    'A backup may not point a named provider somewhere else (an address of your own choosing is saved under Custom)'
  );
}

function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

function clip(text: string): string {
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}
