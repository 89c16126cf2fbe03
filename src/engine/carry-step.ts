import type { HeldAnswer } from './held-answer.ts';
import type { Step } from './loop-step.ts';
import type { ConversationState, Message } from './records/index.ts';
import type { CallRecords } from './storage-port.ts';

/**
 * The next step without reading it back, when nothing but this step can
 * have written since its read: nothing was pending then, so no decision can
 * have been stored since, and this tab holds the conversation, so no other
 * run or message can have been either. (A Stop, or deleting the
 * conversation, aborts this run's signal, which each step checks.)
 */
export function carryStep(
  step: Step,
  next: { state: ConversationState; turns: number; wrote: readonly Message[]; calls?: CallRecords; held?: HeldAnswer | undefined },
): Step | undefined {
  if (step.pending.length > 0) return undefined;
  const { state, turns, wrote, calls, held } = next;
  return {
    state,
    turns,
    pending: [],
    history: [...step.history, ...wrote],
    ...(step.stored ? { stored: [...step.stored, ...wrote] } : {}),
    sampled: step.sampled,
    ...(step.instructions ? { instructions: step.instructions } : {}),
    ...(calls ? { calls } : {}),
    ...(held ? { held } : {}),
  };
}
