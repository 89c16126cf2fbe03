import type { EngineContext } from './engine-context.ts';
import { UnrecordedFailure } from './errors.ts';
import { failureState } from './error-state.ts';
import type { HeldAnswer } from './held-answer.ts';
import { expirySettlement } from './pause-expiry.ts';
import type { AssistantMessage, Conversation, ConversationState, Message, PausePoint } from './records/index.ts';
import { signedSettlement } from './signed-decision.ts';

/**
 * What the loop (run-loop.ts) writes besides the model's answers and the
 * calls' results: the conversation's state, its notices, its pauses and the
 * cards it expires. Only the run holding the conversation's lock writes these.
 */
export class RunWrites {
  readonly #ctx: EngineContext;

  constructor(ctx: EngineContext) {
    this.#ctx = ctx;
  }

  /**
   * A stream left `streaming` by a dead run: keep its text, mark it, and let
   * the turn be retried. Returns whether it closed one (the caller reads again).
   */
  async closeOrphanedStream(history: readonly Message[]): Promise<boolean> {
    const orphan = history.find((m): m is AssistantMessage => m.role === 'assistant' && m.status === 'streaming');
    if (!orphan) return false;
    const closed: AssistantMessage = { ...orphan, status: 'interrupted' };
    await this.#ctx.storage.putMessage(closed);
    await this.notice(orphan.conversationId, 'The previous answer was interrupted before it finished; it is kept above and the turn was retried.');
    return true;
  }

  async expire(pause: PausePoint, why: 'timeout' | 'abandoned'): Promise<void> {
    const settle = await signedSettlement(this.#ctx, pause, (pending, clock) => expirySettlement({ ...this.#ctx, clock }, pending, why));
    await this.#ctx.storage.settlePausePoint(pause.id, settle);
  }

  /** Pauses the run: the gates' new questions and the paused state, in one transaction; then tells the host. */
  async pause(conversationId: string, questions: readonly PausePoint[], held?: HeldAnswer): Promise<void> {
    const update = (c: Conversation, pending: number): Conversation => ({ ...(held ? held.update(c) : c), state: { kind: 'paused', pending }, updatedAt: this.#ctx.clock.now() });
    await this.#ctx.storage.pauseConversation(conversationId, questions, update, held && [held.draft]);
    for (const question of questions) this.#ctx.onPause(question);
  }

  async stopped(conversationId: string): Promise<void> {
    await this.notice(conversationId, 'Stopped.');
    await this.setState(conversationId, { kind: 'idle' });
  }

  async stepLimit(conversationId: string, maxSteps: number): Promise<void> {
    const message = `Stopped after ${maxSteps} model calls without finishing. Press Continue to let it keep going.`;
    await this.notice(conversationId, message);
    await this.setState(conversationId, { kind: 'error', code: 'step_limit', message, retryable: true });
  }

  /** Records a run's failure as its conversation's error state, then rethrows it (to the host's `onError`). */
  async fail(conversationId: string, error: unknown): Promise<void> {
    const state = failureState(error);
    try {
      await this.setState(conversationId, state);
    } catch {
      // Deleted under the run: there is nothing left to fail, and no one to tell.
      if ((await this.#ctx.storage.getConversation(conversationId).catch(() => null)) === undefined) return;
      // Storage itself is failing (or the tab is going away): no tab can show the error state.
      throw new UnrecordedFailure(conversationId, state.message, { cause: error });
    }
    throw error;
  }

  async notice(conversationId: string, content: string): Promise<void> {
    const { storage, clock, ids } = this.#ctx;
    await storage.appendMessages(conversationId, [{ v: 1, id: ids.uuid(), conversationId, createdAt: clock.now(), role: 'notice', content }]);
  }

  /** Writes `state` unless this step read it already (only the lock holder moves these states). */
  async changeState(conversationId: string, current: ConversationState, state: { kind: 'idle' } | { kind: 'paused'; pending: number }): Promise<void> {
    const same = current.kind === state.kind && (current.kind !== 'paused' || (state.kind === 'paused' && current.pending === state.pending));
    if (!same) await this.setState(conversationId, state);
  }

  async setState(conversationId: string, state: ConversationState): Promise<void> {
    await this.#ctx.storage.updateConversation(conversationId, (c) => ({ ...c, state, updatedAt: this.#ctx.clock.now() }));
  }
}
