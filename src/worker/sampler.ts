import { describeSamplingBreach } from '../engine/spending-gate.ts';
import { checkLimits } from '../engine/spending.ts';
import { estimateSamplingTokens, samplingCap } from '../mcp/sampling-request.ts';
import type { Sampler } from '../mcp/server-requests.ts';
import type { PausepointDb } from '../storage/db.ts';
import { DexieStorage } from '../storage/dexie-storage.ts';
import { DEFAULT_MAX_TOKENS } from '../storage/settings-constants.ts';
import { readSettings } from '../storage/settings-repo.ts';
import { recordSampledUsage } from '../storage/usage-repo.ts';
import { engineSettings } from './engine-settings.ts';
import { modelFromSettings } from './model-from-settings.ts';

/**
 * Approved MCP sampling requests, sent to the user's configured model through
 * the same model port (and settings read) the engine uses for its own steps.
 * They spend the user's tokens as answers do, so they are counted as answers
 * are: each call's usage is stored on the conversation it was made for
 * (`recordSampledUsage`), where the spending check before every later model
 * call and the day's spending find it, and a request that would itself pass
 * a limit says so on its card (`limitNotice`). Its cap is the server's, or
 * the user's own Max tokens per answer if lower.
 */
export function samplerOver(db: PausepointDb, now: () => number = Date.now): Sampler {
  const sample: Sampler = async ({ conversationId, messages, maxTokens, signal }) => {
    const settings = await readSettings(db);
    const model = await modelFromSettings(settings);
    const cap = samplingCap(maxTokens, settings?.maxTokens ?? DEFAULT_MAX_TOKENS);
    const result = await model.complete({ messages, tools: [], signal, onText: () => {}, maxTokens: cap });
    if (result.usage) await recordSampledUsage(db, conversationId, result.usage, now());
    return {
      text: result.content,
      model: settings?.provider === 'demo' ? 'demo' : (settings?.model ?? ''),
      finishReason: result.finishReason,
      maxTokens: cap,
      ...(result.usage ? { usage: result.usage } : {}),
    };
  };
  sample.limitNotice = async ({ conversationId, messages }) => {
    const spending = await engineSettings(db, now).spending?.();
    if (!spending) return null;
    const [conversation, history] = await Promise.all([db.conversations.get(conversationId), new DexieStorage(db).listMessages(conversationId)]);
    const sampled = conversation?.sampled?.map((call) => call.usage) ?? [];
    const breach = checkLimits(history, spending, { sampled, estimate: estimateSamplingTokens(messages) });
    return breach ? describeSamplingBreach(breach) : null;
  };
  return sample;
}
