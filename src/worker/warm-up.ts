import type { ModelPort } from '../engine/model-port.ts';
import type { PausepointDb } from '../storage/db.ts';
import { readSettings } from '../storage/settings-repo.ts';
import { modelFromSettings, rehearseModelCall } from './model-from-settings.ts';
import { Request } from './protocol.ts';

/** What a person presses first: the intents whose first parse is warmed. */
const SAMPLE_INTENTS: readonly unknown[] = [
  { id: 0, intent: { type: 'decide', pausePointId: 'warm-up', decision: { type: 'approve' } } },
  { id: 0, intent: { type: 'send', conversationId: 'warm-up', text: 'warm-up' } },
];

/**
 * The cold paths of a new worker's first press, run as soon as it has started
 * instead of between that press and its model request: zod's
 * first parse of an intent, and the openai SDK loaded and its client built
 * for the stored settings (modelFor keeps it for the first call), then one
 * rehearsed completion through the SDK against the demo's in-thread fetch
 * (the request and stream paths compiled; nothing sent). V8
 * compiles each function on its first call; in a new worker these added tens
 * of milliseconds to the first Approve (bench:latency's b′ row). Nothing is
 * written or sent. Resolves with the model it built, if the settings name one.
 */
export async function warmUp(db: PausepointDb): Promise<ModelPort | undefined> {
  for (const sample of SAMPLE_INTENTS) Request.safeParse(sample);
  const settings = await readSettings(db);
  if (!settings) return undefined;
  const model = await modelFromSettings(settings).catch(() => undefined);
  await rehearseModelCall().catch((error: unknown) => console.warn('Pausepoint: rehearsing a model call failed', error));
  return model;
}
