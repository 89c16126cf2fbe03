import type { EngineContext } from './engine-context.ts';
import { signedSettlement } from './signed-decision.ts';
import type { PausePoint } from './records/index.ts';

/** How often a waiting call looks for a decision made in another tab (this tab's decisions wake it at once). */
export const ASK_POLL_MS = 500;

/**
 * The calls of this tab that wait for an answer to a card they asked while
 * running (`ToolContext.ask`). A decision made here wakes its waiter at once;
 * one made in another tab is found by polling the stored record.
 */
export class AskWaiters {
  readonly #wake = new Map<string, () => void>();
  #asked = 0;

  /**
   * How many cards calls of this tab have asked so far. A step whose calls
   * asked reads the history back rather than carrying it on: each decision
   * wrote a message into it meanwhile.
   */
  get asked(): number {
    return this.#asked;
  }

  /** Resolves with the pause point once it is no longer pending; expires it as lost if `signal` aborts first. */
  async wait(ctx: EngineContext, pausePointId: string, signal: AbortSignal): Promise<PausePoint> {
    this.#asked++;
    try {
      for (;;) {
        const stored = await ctx.storage.getPausePoint(pausePointId);
        if (!stored) throw new Error('The card for this request was deleted before it was answered.');
        if (stored.status !== 'pending') return stored;
        if (stored.expiresAt !== null && stored.expiresAt <= ctx.clock.now()) {
          await settleExpired(ctx, pausePointId, 'timeout');
          continue;
        }
        await this.#nap(ctx, pausePointId, signal);
      }
    } catch (error) {
      if (signal.aborted) await settleExpired(ctx, pausePointId, 'lost');
      throw error;
    }
  }

  /** Told by `Engine.decide` after a decision is stored here. */
  decided(pausePointId: string): void {
    this.#wake.get(pausePointId)?.();
  }

  async #nap(ctx: EngineContext, pausePointId: string, signal: AbortSignal): Promise<void> {
    const early = new AbortController();
    this.#wake.set(pausePointId, () => early.abort());
    try {
      await ctx.clock.sleep(ASK_POLL_MS, AbortSignal.any([signal, early.signal]));
    } catch (error) {
      if (signal.aborted || !early.signal.aborted) throw error;
    } finally {
      this.#wake.delete(pausePointId);
    }
  }
}

/**
 * Expires a card a running call asked, if it is still pending. No message is
 * written: the call's own result tells the model what came of it.
 */
export async function settleExpired(ctx: EngineContext, pausePointId: string, why: 'timeout' | 'lost'): Promise<void> {
  // Read first, to sign the expiry before its compare-and-set (signed-decision.ts); not a press path.
  const card = await ctx.storage.getPausePoint(pausePointId);
  if (card?.status !== 'pending') return;
  const settle = await signedSettlement(ctx, card, (pending, clock) => ({
    commit: true,
    pausePoint: { ...pending, status: 'expired', resolvedAt: clock.now(), expiredReason: why },
    messages: [],
  }));
  await ctx.storage.settlePausePoint(pausePointId, settle);
}
