import { z } from 'zod';
import { isLoopbackHost } from '../storage/endpoint-origin.ts';

/** ntfy's own topic rule (`[-_A-Za-z0-9]{1,64}`): anything else its server refuses or routes elsewhere. */
export const TOPIC_PATTERN = /^[-_A-Za-z0-9]{1,64}$/;
export const DEFAULT_PUSH_SERVER = 'https://ntfy.sh';
/** Seconds a new card waits, unseen, before it is pushed: most cards are decided at the screen within it. */
export const DEFAULT_GRACE_SECONDS = 20;
export const MAX_GRACE_SECONDS = 3_600;

/**
 * Where pushes go: https, or plain http to this computer only (a token sent
 * over a network in clear could be read and reused). A path is allowed, for
 * a server behind a reverse proxy's prefix.
 */
export function pushServerProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return 'Enter the server’s address, such as https://ntfy.sh.';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'The address must start with https://.';
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) return 'Use https:// — plain http is for a server on this computer only.';
  if (url.username || url.password) return 'Put the access token in its own field, not in the address.';
  if (url.search || url.hash) return 'The address cannot have a ? or # part.';
  return null;
}

export const PushServerUrl = z.string().superRefine((value, ctx) => {
  const problem = pushServerProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/**
 * Push notifications through the person's ntfy server (stored in the settings
 * table, row `push`; the access token is not here but in its own row, see
 * push-token.ts). Synced to the person's other devices, sealed like every
 * synced record, so one device sets it up for all.
 */
export const PushConfig = z.object({
  v: z.literal(1),
  serverUrl: PushServerUrl,
  topic: z.string().regex(TOPIC_PATTERN),
  /** Whether the push's priority follows the card's risk label (`Say how risky`): off, nothing about the card is sent. */
  sayRisk: z.boolean(),
  /** How long a new card waits before it is pushed, in seconds. */
  graceSeconds: z.number().int().min(0).max(MAX_GRACE_SECONDS),
  /** When it was saved: of two devices' saves, the later one stands. */
  savedAt: z.number(),
});
export type PushConfig = z.infer<typeof PushConfig>;

export const PUSH_CONFIG_KEY = 'push';

/**
 * Row `pushOff`: when push was turned off here (or on another device, applied
 * here). Kept instead of nothing so the later of a save and a turn-off stands
 * across devices: without it, a device that never saw the turn-off would push
 * the old settings back to the others.
 */
export const PUSH_OFF_KEY = 'pushOff';
export const PushOff = z.object({ v: z.literal(1), savedAt: z.number() });
export type PushOff = z.infer<typeof PushOff>;

/**
 * The push settings as one device shares them with the others (sync kind
 * `pushSettings`, one document per device, its id the device's): the settings
 * it last saved or applied, or `null` when they were turned off, and when.
 * The access token is never in it (push-token.ts).
 */
export const SharedPushSettings = z.object({
  id: z.string().min(1).max(200),
  savedAt: z.number(),
  config: PushConfig.omit({ savedAt: true }).nullable(),
});
export type SharedPushSettings = z.infer<typeof SharedPushSettings>;

/** A fresh secret topic: 128 random bits in hex, which nobody can guess to read the pushes. */
export function newTopic(random: (bytes: Uint8Array<ArrayBuffer>) => Uint8Array = (b) => crypto.getRandomValues(b)): string {
  const bytes = random(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The server URL without a trailing slash, so a topic joins it with one. */
export function serverBase(serverUrl: string): string {
  return new URL(serverUrl.trim()).href.replace(/\/+$/, '');
}

/** The links that subscribe the ntfy app to the topic: its own scheme, and the web form (which also opens the web app). */
export function subscribeLinks(config: Pick<PushConfig, 'serverUrl' | 'topic'>): { app: string; web: string } {
  const base = new URL(serverBase(config.serverUrl));
  const path = `${base.pathname.replace(/\/+$/, '')}/${config.topic}`;
  return { app: `ntfy://${base.host}${path}`, web: `${base.origin}${path}` };
}
