import type { EngineParts } from './engine-parts.ts';
import { lockName } from './engine-options.ts';
import { CallerError, ModelError } from './errors.ts';
import type { Step } from './loop-step.ts';
import { runLoop } from './run-loop.ts';
import { mayTakeOver, runnableHere } from './runnable-here.ts';
import { BUSY_MESSAGE } from './versions/version-checks.ts';
import { writeUnderLock } from './write-under-lock.ts';

/**
 * Where and when the loop (run-loop.ts) runs: always under the
 * conversation's Web Lock, at most one run per conversation in this tab,
 * each abortable by a Stop. Tracks the runs started in the background so the
 * host can wait for them (`whenIdle`) and hears of their failures (`onError`).
 */
export class RunControl {
  readonly #parts: EngineParts;
  readonly #controllers = new Map<string, AbortController>();
  readonly #runs = new Map<string, Promise<void>>();

  constructor(parts: EngineParts) {
    this.#parts = parts;
  }

  /** A press's write under the conversation's lock, then its run under the same lock (see writeUnderLock); `busy` when the lock is held. */
  async writeAndRun(conversationId: string, write: () => Promise<Step | undefined>): Promise<void> {
    const locked = await writeUnderLock(this.#parts.options.locks, lockName(conversationId), write, (first) => this.advance(conversationId, first));
    if (!locked) throw new CallerError('busy', BUSY_MESSAGE);
    this.kick(conversationId, locked.run);
  }

  /** Aborts this tab's run of the conversation. Returns false when this tab is not running it. */
  stop(conversationId: string): boolean {
    const controller = this.#controllers.get(conversationId);
    controller?.abort(new ModelError('aborted', 'Stopped by the user.'));
    return controller !== undefined;
  }

  /**
   * Stops the conversation's run in this tab, or asks the other tabs to (only
   * one runs it); a conversation another device runs is asked of that device.
   */
  async stopEverywhere(conversationId: string): Promise<void> {
    const { options, devices, ctx } = this.#parts;
    if (this.stop(conversationId)) return;
    options.tabs?.requestStop(conversationId);
    if (!devices.syncing) return;
    const conversation = await ctx.storage.getConversation(conversationId);
    if (conversation && !devices.runsHere(conversation.ownerDevice)) await devices.requestStop(conversationId);
  }

  /** Retry after an error, or Continue after the step limit or an interruption. */
  async retry(conversationId: string): Promise<void> {
    const { ctx, devices } = this.#parts;
    await ctx.storage.updateConversation(conversationId, (c) =>
      c.state.kind === 'error' ? { ...runnableHere(devices, c), state: { kind: 'idle' } } : runnableHere(devices, c),
    );
    this.kick(conversationId);
  }

  /**
   * Takes over a conversation whose run was orphaned (its tab closed or
   * crashed), if no live tab holds it. Returns whether anything was recovered.
   */
  async recover(conversationId: string): Promise<boolean> {
    const attempt = await this.#parts.options.locks.ifAvailable(lockName(conversationId), () => this.#takeOver(conversationId));
    return attempt.acquired && attempt.value;
  }

  /**
   * Waits until no other tab holds the conversation, then takes it over if it
   * was left active: how a watching tab notices that the owner tab closed.
   */
  async watch(conversationId: string): Promise<boolean> {
    return this.#parts.options.locks.withLock(lockName(conversationId), () => this.#takeOver(conversationId));
  }

  /** Runs the loop for a conversation now (waiting for any other tab's run to end first). */
  run(conversationId: string): Promise<void> {
    return this.#parts.options.locks.withLock(lockName(conversationId), () => this.advance(conversationId));
  }

  /** Resolves when every run this engine started in the background has ended. */
  async whenIdle(): Promise<void> {
    while (this.#runs.size > 0) await Promise.allSettled([...this.#runs.values()]);
  }

  /** Starts a run in the background, after this engine's earlier run of the conversation; or tracks one `started` already. */
  kick(conversationId: string, started?: Promise<unknown>): void {
    const previous = this.#runs.get(conversationId) ?? Promise.resolve();
    const run = started ? Promise.all([previous, started]) : previous.then(() => this.run(conversationId));
    const next: Promise<void> = run
      .then(() => undefined, (error: unknown) => this.#parts.options.onError?.(error, conversationId))
      .finally(() => {
        if (this.#runs.get(conversationId) === next) this.#runs.delete(conversationId);
      });
    this.#runs.set(conversationId, next);
  }

  /** The loop, under the lock the caller holds, abortable by `stop`. `first`: the run's first step when the caller read it. */
  async advance(conversationId: string, first?: Step): Promise<void> {
    const controller = new AbortController();
    this.#controllers.set(conversationId, controller);
    try {
      await runLoop(this.#parts, conversationId, controller.signal, first);
    } finally {
      this.#controllers.delete(conversationId);
    }
  }

  /** Under the conversation's lock: runs it if it was left active and this device runs it. */
  async #takeOver(conversationId: string): Promise<boolean> {
    const conversation = await this.#parts.ctx.storage.getConversation(conversationId);
    if (!mayTakeOver(this.#parts.devices, conversation)) return false;
    await this.advance(conversationId);
    return true;
  }
}
