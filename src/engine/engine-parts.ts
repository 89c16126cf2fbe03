import { AskWaiters } from './ask-while-running.ts';
import { NO_ATTACHMENTS } from './attachments-port.ts';
import { THIS_BROWSER_ONLY, type DevicesPort } from './devices-port.ts';
import { NO_RULES, NO_SETTINGS } from './engine-defaults.ts';
import type { EngineContext } from './engine-context.ts';
import { DEFAULT_MAX_STEPS, type EngineOptions } from './engine-options.ts';
import { HistoryCache } from './history-cache.ts';
import { PausedHere } from './paused-here.ts';
import { ToolRegistry } from './tool-registry.ts';
import { waitForApproval } from './wait-for-approval.ts';

/**
 * What the engine's intent families (run-control.ts, card-decisions.ts,
 * conversation-edits.ts) and its loop share: the ports as the parts see
 * them, and the two caches one engine keeps for all of them. One object, made
 * once per engine, so every family reads the same history cache and the same
 * record of which cards paused here.
 */
export interface EngineParts {
  readonly ctx: EngineContext;
  readonly options: EngineOptions;
  readonly devices: DevicesPort;
  readonly history: HistoryCache;
  readonly pausedHere: PausedHere;
  readonly maxSteps: number;
}

export function engineParts(options: EngineOptions): EngineParts {
  const pausedHere = new PausedHere();
  const ctx: EngineContext = {
    storage: options.storage,
    attachments: options.attachments ?? NO_ATTACHMENTS,
    rules: options.rules ?? NO_RULES,
    tools: new ToolRegistry([waitForApproval, ...options.tools], options.dynamicTools),
    clock: options.clock,
    ids: options.ids,
    owner: options.owner,
    settings: options.settings ?? NO_SETTINGS,
    onPause: (pausePoint) => {
      pausedHere.note(pausePoint);
      options.onPause?.(pausePoint);
    },
    asks: new AskWaiters(),
    ...(options.signer ? { signer: options.signer } : {}),
  };
  return {
    ctx,
    options,
    devices: options.devices ?? THIS_BROWSER_ONLY,
    history: new HistoryCache(options.storage),
    pausedHere,
    maxSteps: options.maxSteps ?? DEFAULT_MAX_STEPS,
  };
}
