import { settleExpired } from './ask-while-running.ts';
import { pauseForView, settleViewCalls } from './call-from-view.ts';
import { carryStep } from './carry-step.ts';
import type { EngineParts } from './engine-parts.ts';
import { ModelError } from './errors.ts';
import { errorState } from './error-state.ts';
import { HeldAnswer } from './held-answer.ts';
import { NO_RECORDS, openCallsToRead, stepOf, type Step } from './loop-step.ts';
import { isDue } from './pause-expiry.ts';
import type { ConversationState } from './records/index.ts';
import { lastAssistant, needsModel, openCalls } from './read-history.ts';
import { retryDelay } from './retry-policy.ts';
import { RunWrites } from './run-writes.ts';
import { settleOpenCalls } from './settle-open-calls.ts';
import { spendingGate } from './spending-gate.ts';
import { streamAssistantTurn } from './stream-assistant-turn.ts';
import { askedByTask } from './task-cards.ts';

/**
 * The agent loop, run under the conversation's lock (run-control.ts). Every
 * step decides what to do from stored records alone: it reads them, or, when
 * nothing but the step before can have written since, goes on from what that
 * step wrote (carry-step.ts). So a run that stopped anywhere — paused,
 * crashed, closed with its tab — continues from the same records in any tab.
 *
 * `first`: the run's first step when the caller read it (a Send), rather than
 * a read of the loop's own. A failure is stored as the conversation's error
 * state and rethrown.
 */
export async function runLoop(parts: EngineParts, conversationId: string, signal: AbortSignal, first?: Step): Promise<void> {
  const writes = new RunWrites(parts.ctx);
  try {
    await loop(parts, writes, conversationId, signal, first);
  } catch (error) {
    await writes.fail(conversationId, error);
  }
}

async function loop(parts: EngineParts, writes: RunWrites, conversationId: string, signal: AbortSignal, first?: Step): Promise<void> {
  const { ctx, devices, options } = parts;
  const { clock } = ctx;
  let steps = 0;
  let attempt = 0;
  // What the next step would read, when that can only be what this step wrote (see carry-step.ts).
  let carried: Step | undefined = first;
  for (;;) {
    const step = carried ?? (await read(parts, conversationId));
    carried = undefined;
    if (!step) return;
    // Another device's conversation is run by that device: this one only shows it and decides its cards.
    if (!devices.runsHere(step.ownerDevice)) return;
    const { pending, history } = step;
    const expired = pending.filter((pause) => isDue(pause, clock.now()));
    if (expired.length > 0) {
      for (const pause of expired) await writes.expire(pause, 'timeout');
      continue;
    }
    // This run holds the conversation and is not inside a call, so no call is
    // waiting on these any more: the run that asked them died with its tab.
    // A server's task still waits for its answers: the run that follows it takes them up (follow-task.ts).
    const lost = pending.filter((pause) => pause.origin === 'elicitation' && !askedByTask(pause));
    if (lost.length > 0) {
      for (const pause of lost) await settleExpired(ctx, pause.id, 'lost');
      continue;
    }
    if (await writes.closeOrphanedStream(history)) continue;
    // A view's calls (MCP Apps) are settled as the model's are, and never make the model answer (call-from-view.ts).
    const viewed = await settleViewCalls(ctx, history, signal);
    if (viewed.questions.length > 0) return pauseForView(ctx, conversationId, viewed.questions);
    if (viewed.results.length > 0) continue;
    // The state this tab wrote is only written again when it changes.
    const runningHere = step.state.kind === 'running' && step.state.owner === ctx.owner;
    const running: ConversationState = runningHere ? step.state : { kind: 'running', owner: ctx.owner, since: clock.now() };

    const last = lastAssistant(history);
    const open = last ? openCalls(last, history) : [];
    if (last && open.length > 0) {
      if (!runningHere) await writes.setState(conversationId, running);
      const asked = ctx.asks.asked;
      const { held } = step;
      const callCtx = held ? { ...ctx, storage: held.storingFirst(ctx.storage) } : ctx;
      // A failure keeps the answer: a retry settles its calls rather than asking the model again.
      const settled = await settleOpenCalls(callCtx, last, open, signal, step.calls).catch(async (error: unknown) => {
        await held?.store();
        throw error;
      });
      // Held until now only if nothing was written for it: then it is stored with its questions, or now.
      const pauseWith = held?.isStored === false && settled.waiting > 0 && !signal.aborted ? held : undefined;
      const stored = held && !pauseWith ? await held.store() : undefined;
      if (signal.aborted) return writes.stopped(conversationId);
      if (settled.waiting > 0) return writes.pause(conversationId, settled.questions, pauseWith);
      const base = stored ? { ...step, history: [...step.history.slice(0, -1), stored], ...(step.stored ? { stored: [...step.stored.slice(0, -1), stored] } : {}) } : step;
      // A call that asked the user meanwhile: the decision wrote into the history, which is read back.
      if (ctx.asks.asked === asked) carried = carryStep(base, { state: running, turns: step.turns, wrote: settled.results });
      continue;
    }
    if (pending.length > 0) {
      for (const pause of pending) parts.pausedHere.note(pause);
      return writes.changeState(conversationId, step.state, { kind: 'paused', pending: pending.length });
    }
    if (!needsModel(history)) return writes.changeState(conversationId, step.state, { kind: 'idle' });
    if (steps >= parts.maxSteps) return writes.stepLimit(conversationId, parts.maxSteps);
    if (signal.aborted) return writes.stopped(conversationId);
    const spending = await spendingGate(ctx, conversationId, step.turns, history, step.alongside, step.sampled, step.stored);
    if ('ask' in spending) return writes.pause(conversationId, [spending.ask]);
    if ('stop' in spending) {
      if (spending.stop !== null) await writes.notice(conversationId, spending.stop);
      return writes.changeState(conversationId, step.state, { kind: 'idle' });
    }

    steps++;
    try {
      if (!runningHere) await writes.setState(conversationId, running);
      const model = await options.model(step.alongside);
      const start = { conversationId, turnIndex: step.turns, stateWhenAnswered: { kind: 'idle' }, ...(step.stored ? { stored: step.stored } : {}) } as const;
      const instructions = { general: await ctx.settings.instructions?.(step.alongside), conversation: step.instructions };
      const answer = await streamAssistantTurn(ctx, model, start, history, signal, instructions);
      const held = answer instanceof HeldAnswer ? answer : undefined;
      const message = answer instanceof HeldAnswer ? answer.message : answer;
      // An answer without tool calls ends the run, its state written with it.
      if (message.toolCalls.length === 0) return;
      attempt = 0;
      // Its calls have ids no stored call had (uniqueCallIds), so nothing is stored for them yet.
      carried = carryStep(step, { state: running, turns: step.turns + 1, wrote: [message], calls: NO_RECORDS, held });
    } catch (error) {
      if (!(error instanceof ModelError)) throw error;
      if (error.kind === 'aborted' || signal.aborted) return writes.stopped(conversationId);
      if (error.kind === 'network' && !options.network.isOnline()) {
        await writes.setState(conversationId, { kind: 'waiting_for_network', owner: ctx.owner, since: clock.now() });
        if (!(await settles(options.network.whenOnline(signal)))) return writes.stopped(conversationId);
        continue;
      }
      attempt++;
      const delay = retryDelay(error, attempt);
      if (delay === null) return writes.setState(conversationId, errorState(error, history));
      await writes.setState(conversationId, {
        kind: 'retrying',
        owner: ctx.owner,
        attempt,
        retryAt: clock.now() + delay,
        reason: error.message,
      });
      if (!(await settles(clock.sleep(delay, signal)))) return writes.stopped(conversationId);
    }
  }
}

/**
 * A step's read: one transaction, with the history re-read only where it
 * can have changed, and the records of the last answer's open calls read in
 * it too (the step after a decision runs the call without a second read).
 */
async function read(parts: EngineParts, conversationId: string): Promise<Step | undefined> {
  return stepOf(await parts.history.load(conversationId, openCallsToRead));
}

/** Waits for a wait that the user's Stop may abort: true when it finished, false when stopped. */
async function settles(wait: Promise<void>): Promise<boolean> {
  try {
    await wait;
    return true;
  } catch (error) {
    if (error instanceof ModelError && error.kind === 'aborted') return false;
    throw error;
  }
}
