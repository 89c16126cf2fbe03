import { AskWaiters, settleExpired } from './ask-while-running.ts';
import { NO_ATTACHMENTS } from './attachments-port.ts';
import type { BatchCardResult, BatchDecision, BatchResult } from './batch-decision.ts';
import type { DecideResult, Decision } from './decision.ts';
import { claimThenDecide, type DecideHere } from './claim-then-decide.ts';
import { pauseForView, settleViewCalls, startViewCall, viewCallOutcome, type ViewCallOutcome, type ViewCallRequest } from './call-from-view.ts';
import { decisionSettlement } from './decision-settlement.ts';
import { THIS_BROWSER_ONLY, type DevicesPort } from './devices-port.ts';
import { editableMessage, editedConversation, keptFiles } from './edit-message.ts';
import { DEFAULT_MAX_STEPS, lockName, type EngineOptions } from './engine-options.ts';
import type { EngineContext } from './engine-context.ts';
import { CallerError, isNotFound, ModelError, UnrecordedFailure } from './errors.ts';
import { NEW_TITLE, titleFrom } from './conversation-title.ts';
import { HeldAnswer } from './held-answer.ts';
import { HistoryCache } from './history-cache.ts';
import { previewRule, type RulePreview, type StoredCall } from './preview-rule.ts';
import { newRule } from './new-rule.ts';
import { NO_RULES, NO_SETTINGS } from './engine-defaults.ts';
import type { CallRecords, MessageDraft, Settlement, SettleResult } from './storage-port.ts';
import { NO_RECORDS, openCallsToRead, stepOf, type Step } from './loop-step.ts';
import { PausedHere } from './paused-here.ts';
import {
  isActive,
  newConversation,
  type ApprovalRule,
  type ApprovalRuleDraft,
  type AttachmentRef,
  type AssistantMessage,
  type Conversation,
  type ConversationState,
  type DecidedBy,
  type DeviceSignature,
  type Message,
  type PausePoint,
} from './records/index.ts';
import { claimedSignature, personSigned, signDecision, signedSettlement } from './signed-decision.ts';
import { OutcomeNotSignedYet, SignedOutcomes } from './signed-outcomes.ts';
import { expirySettlement, isDue } from './pause-expiry.ts';
import { lastAssistant, needsModel, openCalls } from './read-history.ts';
import { regeneratedConversation } from './regenerate.ts';
import { retryDelay } from './retry-policy.ts';
import { errorState, failureState } from './error-state.ts';
import { settleOpenCalls } from './settle-open-calls.ts';
import { spendingGate } from './spending-gate.ts';
import { streamAssistantTurn } from './stream-assistant-turn.ts';
import { switchedConversation } from './switch-version.ts';
import { BUSY_MESSAGE } from './versions/version-checks.ts';
import { ToolRegistry } from './tool-registry.ts';
import { waitForApproval } from './wait-for-approval.ts';
import { writeUnderLock } from './write-under-lock.ts';

/**
 * The agent loop. Every step decides what to do from stored records alone: it
 * reads them, or, when nothing but the step before can have written since,
 * goes on from what that step wrote (`#carry`). So a run that stopped
 * anywhere — paused, crashed, closed with its tab — continues from the same
 * records in any tab.
 */
export class Engine {
  readonly #options: EngineOptions;
  readonly #ctx: EngineContext;
  readonly #maxSteps: number;
  readonly #controllers = new Map<string, AbortController>();
  readonly #runs = new Map<string, Promise<void>>();
  readonly #history: HistoryCache;
  readonly #pausedHere = new PausedHere();
  readonly #devices: DevicesPort;

  constructor(options: EngineOptions) {
    this.#options = options;
    this.#maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
    this.#history = new HistoryCache(options.storage);
    this.#devices = options.devices ?? THIS_BROWSER_ONLY;
    this.#ctx = {
      storage: options.storage,
      attachments: options.attachments ?? NO_ATTACHMENTS,
      rules: options.rules ?? NO_RULES,
      tools: new ToolRegistry([waitForApproval, ...options.tools], options.dynamicTools),
      clock: options.clock,
      ids: options.ids,
      owner: options.owner,
      settings: options.settings ?? NO_SETTINGS,
      onPause: (pausePoint) => {
        this.#pausedHere.note(pausePoint);
        options.onPause?.(pausePoint);
      },
      asks: new AskWaiters(),
      ...(options.signer ? { signer: options.signer } : {}),
    };
  }

  /* ── intents ───────────────────────────────────────────────────────────── */

  async createConversation(title = NEW_TITLE): Promise<string> {
    const created = newConversation({ id: this.#ctx.ids.uuid(), title, now: this.#ctx.clock.now() });
    const ownerDevice = this.#devices.ownerForNew();
    const conversation = ownerDevice ? { ...created, ownerDevice } : created;
    await this.#ctx.storage.putConversation(conversation);
    return conversation.id;
  }

  /**
   * Stores a user message and starts the loop. Pending cards of the
   * conversation are set aside as abandoned, and the model is told.
   *
   * The message, the cards set aside and the running state are one
   * transaction, and the run starts under the lock that transaction was
   * written under: no other tab can slip in between, and no second lock
   * request or read of the cards stands between the press and the model
   * request. Resolves once the message is stored; the run goes on.
   */
  async send(conversationId: string | null, text: string, attachments?: readonly AttachmentRef[]): Promise<{ conversationId: string }> {
    const id = conversationId ?? (await this.createConversation());
    await this.#writeAndRun(id, () => this.#storeUserMessage(id, text, { attachments }));
    return { conversationId: id };
  }

  /**
   * `Edit` → `Send`: a new version of the conversation from the person's
   * message `messageId`, which starts with `text`; the earlier version is
   * kept (src/engine/versions). Stored as Send stores its message — with the
   * new version, the cards set aside and the running state, in one
   * transaction under the conversation's lock — and the run goes on from
   * there. Refused while the conversation is active, and on a device that
   * does not run it.
   *
   * `keep`: the ids of the message's files the new version keeps (all of
   * them when not given). Removing a file is an edit like any other — a new
   * version without it, the earlier one kept as it was — because messages
   * are append-only: how a person goes on past a file the endpoint refuses,
   * which every later request of that version would carry again.
   */
  async editMessage(conversationId: string, messageId: string, text: string, keep?: readonly string[]): Promise<void> {
    // Read before the lock: whatever is appended meanwhile comes after the message, and does not move the fork (edit-message.ts).
    const { history } = await this.#history.load(conversationId);
    const target = editableMessage(history, messageId);
    const attachments = keptFiles(target, text, keep);
    const branch = { id: this.#ctx.ids.uuid(), createdAt: this.#ctx.clock.now() };
    const update = (c: Conversation) => editedConversation(c, history, target, branch);
    const version = { branch: branch.id, update };
    await this.#writeAndRun(conversationId, () => this.#storeUserMessage(conversationId, text, { attachments, version }));
  }

  /**
   * `Regenerate`: asks the model again from the same history as the shown
   * version's last answer; that answer stays as a version. Refused while the
   * conversation is active or a card waits, and when there is no answer.
   */
  async regenerate(conversationId: string): Promise<void> {
    const branch = { id: this.#ctx.ids.uuid(), createdAt: this.#ctx.clock.now() };
    await this.#writeAndRun(conversationId, async () => {
      const { history } = await this.#history.load(conversationId);
      const running = { kind: 'running', owner: this.#ctx.owner, since: this.#ctx.clock.now() } as const;
      await this.#ctx.storage
        .updateConversation(conversationId, (c) => ({ ...regeneratedConversation(this.#runnableHere(c), history, branch), state: running }))
        .catch(notFoundForCaller);
      return undefined;
    });
  }

  /** `Previous version` / `Next version`: shows the version `branchId`; runs nothing (switch-version.ts). */
  async switchVersion(conversationId: string, branchId: string): Promise<void> {
    await this.#ctx.storage.updateConversation(conversationId, (c) => switchedConversation(this.#runnableHere(c), branchId)).catch(notFoundForCaller);
  }

  /** A press's write under the conversation's lock, then its run under the same lock (see writeUnderLock). */
  async #writeAndRun(conversationId: string, write: () => Promise<Step | undefined>): Promise<void> {
    const locked = await writeUnderLock(this.#options.locks, lockName(conversationId), write, (first) => this.#advance(conversationId, first));
    if (!locked) throw new CallerError('busy', BUSY_MESSAGE);
    this.#kick(conversationId, locked.run);
  }

  /**
   * The user's message, with the conversation marked running in its
   * transaction: a tab that dies before its run starts leaves a run for
   * another tab to recover, not an unanswered question. The run that follows
   * finds the state already set, and starts from the step read in the same
   * transaction: it holds the lock that write was made under, so nothing
   * else can have been written since.
   */
  /** `attachments`: the message's files, stored before it (src/attachments); `version`: the new version an Edit starts with it. */
  async #storeUserMessage(
    id: string,
    text: string,
    { attachments, version }: { attachments?: readonly AttachmentRef[] | undefined; version?: { branch: string; update: (c: Conversation) => Conversation } } = {},
  ): Promise<Step | undefined> {
    const { storage, clock, ids } = this.#ctx;
    const message: MessageDraft = {
      v: 1,
      id: ids.uuid(),
      conversationId: id,
      createdAt: clock.now(),
      role: 'user',
      content: text,
      ...(attachments?.length ? { attachments: [...attachments] } : {}),
      ...(version ? { branch: version.branch } : {}),
    };
    // A message of files only is titled by its first file's name.
    const titleText = text.trim() || (attachments?.[0]?.name ?? '');
    const running = (c: Conversation): Conversation => ({
      ...(version ? version.update(this.#runnableHere(c)) : this.#runnableHere(c)),
      title: c.title === NEW_TITLE ? titleFrom(titleText) : c.title,
      state: { kind: 'running', owner: this.#ctx.owner, since: clock.now() },
    });
    // The cards set aside are signed over exactly what the transaction writes, at the message's time (signed-outcomes.ts).
    const at = { ...this.#ctx, clock: { ...clock, now: () => message.createdAt } };
    const outcomes = new SignedOutcomes(this.#ctx);
    const setAside = (pending: PausePoint) => {
      const settled = expirySettlement(at, pending, 'abandoned');
      const pausePoint = outcomes.attach(pending, settled.pausePoint);
      if (!pausePoint) throw new OutcomeNotSignedYet(pending.id);
      return { ...settled, pausePoint };
    };
    // Under the conversation's lock: no card is added between the aborted attempt and this read.
    const signPending = async () => {
      for (const card of await storage.listPendingPausePoints(id)) await outcomes.sign(card, expirySettlement(at, card, 'abandoned').pausePoint);
    };
    const loaded = await outcomes
      .settle(() => this.#history.load(id, openCallsToRead, (fromSeq, callsOf) => storage.appendAndLoadStep(id, [message], running, setAside, fromSeq, callsOf)), signPending)
      .catch(notFoundForCaller);
    return stepOf(loaded);
  }

  /**
   * Records a human decision (first one wins) and resumes the loop. The
   * decision is checked against the pause point inside the compare-and-set's
   * transaction, as it is at that moment, so an invalid one resolves nothing.
   */
  decide(pausePointId: string, decision: Decision, decidedBy: DecidedBy): Promise<DecideResult> {
    return this.#claimAndDecide(pausePointId, decision, decidedBy);
  }

  /**
   * `Approve all` / `Decline all`: decides each card through `decide`, one
   * after the other, each its own compare-and-set, decision message and audit
   * record, all tagged with one new batch id. A card decided elsewhere
   * meanwhile (another tab, a notification, a device) is refused by its own
   * compare-and-set and reported as such; the others are decided all the
   * same. Each conversation continues once its last card is decided, as when
   * the cards are decided one by one. `viewHashes[i]` is the hash of the view
   * the dialog showed of `pausePointIds[i]`: each decision is bound to it.
   */
  async decideBatch(pausePointIds: readonly string[], decision: BatchDecision, decidedBy: DecidedBy, viewHashes?: readonly string[]): Promise<BatchResult> {
    const batchId = this.#ctx.ids.uuid();
    const cards: BatchCardResult[] = [];
    // Ids come from the page: a Map, not an object, holds them.
    const hashOf = new Map(pausePointIds.map((id, index) => [id, viewHashes?.[index]]));
    for (const pausePointId of new Set(pausePointIds)) {
      const viewHash = hashOf.get(pausePointId);
      try {
        cards.push({ pausePointId, result: await this.decide(pausePointId, { ...decision, batchId, ...(viewHash ? { viewHash } : {}) }, decidedBy) });
      } catch (error) {
        // One card's storage failure is that card's result: the person is told which cards were not decided.
        cards.push({ pausePointId, result: { outcome: 'failed', message: error instanceof Error ? error.message : String(error) } });
      }
    }
    return { batchId, cards };
  }

  /**
   * MCP Apps: a `tools/call` an app's view sent, stored as its own row and settled as a model's call is, under
   * the conversation's lock (call-from-view.ts). Resolves once it is decided and, if approved, has run, wherever
   * that happens; `signal` ends only the waiting.
   */
  async callFromView(request: ViewCallRequest, signal?: AbortSignal): Promise<ViewCallOutcome> {
    const started = await this.#options.locks.withLock(lockName(request.conversationId), () => startViewCall(this.#ctx, this.#devices, request));
    return 'outcome' in started ? started : viewCallOutcome(this.#ctx, request.conversationId, started.callId, started.seq, signal);
  }

  /**
   * A card's `Allow in this conversation` / `Always allow`: makes the rule
   * (checked as `addRule` checks it, before anything is written) and decides
   * the card, storing the rule in the decision's own compare-and-set. A
   * decision that is refused — another tab decided first, the card expired, it
   * is invalid — stores no rule either: nothing is granted by a press that
   * did not decide the card.
   */
  async approveWithRule(pausePointId: string, decision: Decision, draft: ApprovalRuleDraft, decidedBy: DecidedBy): Promise<DecideResult> {
    const rule = await newRule(this.#ctx, draft);
    return this.#claimAndDecide(pausePointId, decision, decidedBy, rule);
  }

  /**
   * A decision another device claimed first on the sync server, for a card
   * of a conversation this device runs: applied through the same
   * compare-and-set as one made here, so whichever arrives first of it and a
   * press here is the one that continues, once.
   */
  applyClaimed(pausePointId: string, decision: Decision, decidedBy: DecidedBy, signature?: DeviceSignature): Promise<DecideResult> {
    return this.#decide(pausePointId, decision, decidedBy, undefined, claimedSignature(pausePointId, decision, signature));
  }

  /**
   * A decision, signed by this device as the person made it, then claimed on
   * the sync server first while sync is on (claim-then-decide.ts): the claim
   * carries the signature to the owner, which stores it with the decision.
   */
  async #claimAndDecide(pausePointId: string, decision: Decision, decidedBy: DecidedBy, rule?: ApprovalRule): Promise<DecideResult> {
    const signature = await signDecision(this.#ctx, personSigned(pausePointId, decision, this.#ctx.clock.now()));
    const decideHere: DecideHere = (d, by, r, s) => this.#decide(pausePointId, d, by, r, s);
    // Without sync the press path stays one transaction (settleAndLoadStep): no read before it.
    if (!this.#devices.syncing) return decideHere(decision, decidedBy, rule, signature);
    return claimThenDecide(this.#ctx, this.#devices, pausePointId, decision, decidedBy, rule, decideHere, signature);
  }

  async #decide(pausePointId: string, decision: Decision, decidedBy: DecidedBy, rule?: ApprovalRule, signature?: DeviceSignature): Promise<DecideResult> {
    const now = this.#ctx.clock.now();
    // A card this press finds past its time is expired signed: that settles in a second transaction (signed-outcomes.ts).
    const outcomes = new SignedOutcomes(this.#ctx);
    const settle = (pending: PausePoint) => decisionSettlement(this.#ctx, pending, decision, decidedBy, now, rule, undefined, signature, outcomes);
    const { locked, settled } = await outcomes.settle(async () => {
      const here = this.#pausedHere.conversationOf(pausePointId);
      const locked = here === undefined ? undefined : await this.#settleAndRun(here, pausePointId, settle);
      return { locked, settled: locked ?? (await this.#ctx.storage.settlePausePoint(pausePointId, settle)) };
    });
    // Without the lock, the run that picks the decision up starts now (after whatever run holds it).
    const resume = (conversationId: string) => locked === undefined && this.#kick(conversationId);
    if (!settled.ok) {
      switch (settled.reason) {
        case 'already_decided':
          this.#pausedHere.forget(pausePointId);
          return { outcome: 'already_decided', status: settled.pausePoint.status, decidedBy: settled.pausePoint.decidedBy };
        case 'expired':
          // Storage's own guard (not reached while the check above stands): the run expires it.
          resume(settled.pausePoint.conversationId);
          return { outcome: 'expired' };
        case 'not_found':
          return { outcome: 'not_found' };
        case 'refused':
          return settled.code === 'view_changed' ? { outcome: 'changed' } : { outcome: 'invalid', message: settled.message };
      }
    }
    this.#pausedHere.forget(pausePointId);
    // A call of this tab waiting on the card goes on now; otherwise the loop picks the decision up.
    this.#ctx.asks.decided(pausePointId);
    resume(settled.pausePoint.conversationId);
    return settled.pausePoint.status === 'expired' ? { outcome: 'expired' } : { outcome: 'decided' };
  }

  /**
   * A decision where its conversation's lock is free: taken first, so the
   * decision and the step after it are one transaction (settleAndLoadStep),
   * and the run goes on from that step under the same lock, as a Send does.
   * The run starts only once the decision has committed. Undefined when the
   * lock is held (by this tab's run waiting on the card, or another tab's):
   * the caller settles the ordinary way.
   */
  async #settleAndRun(conversationId: string, pausePointId: string, settle: (pending: PausePoint) => Settlement): Promise<SettleResult | undefined> {
    const write = async () => {
      let settled!: SettleResult;
      // The cache's first read is always this one: `settled` is set once it returns.
      const loaded = await this.#history.load(conversationId, openCallsToRead, async (fromSeq, callsOf) => {
        const both = await this.#ctx.storage.settleAndLoadStep(pausePointId, settle, conversationId, fromSeq, callsOf);
        settled = both.settled;
        return both.step;
      });
      return { settled, first: stepOf(loaded) };
    };
    const locked = await writeUnderLock(this.#options.locks, lockName(conversationId), write, async ({ settled, first }) => {
      const resumed = settled.ok || settled.reason === 'expired' ? settled.pausePoint.conversationId : undefined;
      if (resumed === conversationId) await this.#advance(conversationId, first);
      else if (resumed !== undefined) this.#kick(resumed);
    });
    if (!locked) return undefined;
    this.#kick(conversationId, locked.run);
    return locked.value.settled;
  }

  /**
   * Makes an approval rule and stores it: the id, times and the tool's
   * definition hash are filled in here, so every rule is bound the same way
   * whoever made it. It applies from the very next call, in every tab (each
   * call reads the rules afresh). Throws `CallerError` for a rule that could
   * not match what it says.
   */
  async addRule(draft: ApprovalRuleDraft, by?: DecidedBy): Promise<ApprovalRule> {
    const rule = await newRule(this.#ctx, draft);
    await this.#ctx.rules.put(rule, by);
    return rule;
  }

  /**
   * What a draft rule would have decided among `calls` (the stored calls,
   * newest first), before it is saved: checked as `addRule` checks it, and
   * judged with the rules as they are now (preview-rule.ts). Stores nothing.
   */
  async previewRule(draft: ApprovalRuleDraft, calls: readonly StoredCall[]): Promise<RulePreview> {
    const rule = await newRule(this.#ctx, draft);
    return previewRule(rule, await this.#ctx.rules.load(), calls, this.#ctx.clock.now());
  }

  /** Removes an approval rule: the next call it would have decided is decided without it. */
  async removeRule(ruleId: string, by?: DecidedBy): Promise<void> {
    await this.#ctx.rules.remove(ruleId, by);
  }

  /**
   * Renames without touching `updatedAt`: the list is ordered by activity, and
   * a rename is not activity. In one transaction, so a concurrent write by a
   * run (state, nextSeq) is never lost to a stale copy.
   */
  async renameConversation(conversationId: string, title: string): Promise<void> {
    await this.#ctx.storage.updateConversation(conversationId, (c) => ({ ...c, title }));
  }

  /**
   * Sets the conversation's own custom instructions (empty clears them), sent
   * from its next model call on. Like a rename: not activity, one transaction.
   * Saved by the person, they are theirs: instructions a file brought in
   * switched off (`instructionsOff`) are turned on by saving them.
   */
  async setConversationInstructions(conversationId: string, instructions: string): Promise<void> {
    const text = instructions.trim();
    await this.#ctx.storage.updateConversation(conversationId, ({ instructions: _old, instructionsOff: _off, ...c }) => (text ? { ...c, instructions: text } : c));
  }

  /** Deletes a conversation with everything of it (its audit trail too), stopping its run wherever it runs. */
  async deleteConversation(conversationId: string): Promise<void> {
    // Whichever tab runs it stops before its next step, rather than acting for a conversation that is gone.
    // A copy of another device's conversation goes from this device only: that device's run goes on.
    if (!this.stop(conversationId)) this.#options.tabs?.requestStop(conversationId);
    await this.#ctx.storage.deleteConversation(conversationId);
  }

  /**
   * Stops the conversation's run in this tab, or asks the other tabs to (only
   * one runs it); a conversation another device runs is asked of that device.
   */
  async stopEverywhere(conversationId: string): Promise<void> {
    if (this.stop(conversationId)) return;
    this.#options.tabs?.requestStop(conversationId);
    if (!this.#devices.syncing) return;
    const conversation = await this.#ctx.storage.getConversation(conversationId);
    if (conversation && !this.#devices.runsHere(conversation.ownerDevice)) await this.#devices.requestStop(conversationId);
  }

  /** Aborts this tab's run of the conversation. Returns false when this tab is not running it. */
  stop(conversationId: string): boolean {
    const controller = this.#controllers.get(conversationId);
    controller?.abort(new ModelError('aborted', 'Stopped by the user.'));
    return controller !== undefined;
  }

  /** Retry after an error, or Continue after the step limit or an interruption. */
  async retry(conversationId: string): Promise<void> {
    await this.#ctx.storage.updateConversation(conversationId, (c) =>
      c.state.kind === 'error' ? { ...this.#runnableHere(c), state: { kind: 'idle' } } : this.#runnableHere(c),
    );
    this.#kick(conversationId);
  }

  /**
   * Takes over a conversation whose run was orphaned (its tab closed or
   * crashed), if no live tab holds it. Returns whether anything was recovered.
   */
  async recover(conversationId: string): Promise<boolean> {
    const attempt = await this.#options.locks.ifAvailable(lockName(conversationId), async () => {
      const conversation = await this.#ctx.storage.getConversation(conversationId);
      if (!this.#mayTakeOver(conversation)) return false;
      await this.#advance(conversationId);
      return true;
    });
    return attempt.acquired && attempt.value;
  }

  /**
   * Waits until no other tab holds the conversation, then takes it over if it
   * was left active: how a watching tab notices that the owner tab closed.
   */
  async watch(conversationId: string): Promise<boolean> {
    return this.#options.locks.withLock(lockName(conversationId), async () => {
      const conversation = await this.#ctx.storage.getConversation(conversationId);
      if (!this.#mayTakeOver(conversation)) return false;
      await this.#advance(conversationId);
      return true;
    });
  }

  /** Runs the loop for a conversation now (waiting for any other tab's run to end first). */
  run(conversationId: string): Promise<void> {
    return this.#options.locks.withLock(lockName(conversationId), () => this.#advance(conversationId));
  }

  /** Resolves when every run this engine started in the background has ended. */
  async whenIdle(): Promise<void> {
    while (this.#runs.size > 0) await Promise.allSettled([...this.#runs.values()]);
  }

  /* ── the loop ──────────────────────────────────────────────────────────── */

  /** Starts a run in the background, after this engine's earlier run of the conversation; or tracks one `started` already. */
  #kick(conversationId: string, started?: Promise<unknown>): void {
    const previous = this.#runs.get(conversationId) ?? Promise.resolve();
    const run = started ? Promise.all([previous, started]) : previous.then(() => this.run(conversationId));
    const next: Promise<void> = run
      .then(() => undefined, (error: unknown) => this.#options.onError?.(error, conversationId))
      .finally(() => {
        if (this.#runs.get(conversationId) === next) this.#runs.delete(conversationId);
      });
    this.#runs.set(conversationId, next);
  }

  /** `first`: the run's first step when the caller read it (a Send), rather than a read of the loop's own. */
  async #advance(conversationId: string, first?: Step): Promise<void> {
    const controller = new AbortController();
    this.#controllers.set(conversationId, controller);
    try {
      await this.#loop(conversationId, controller.signal, first);
    } catch (error) {
      await this.#fail(conversationId, error);
    } finally {
      this.#controllers.delete(conversationId);
    }
  }

  async #loop(conversationId: string, signal: AbortSignal, first?: Step): Promise<void> {
    const { clock } = this.#ctx;
    let steps = 0;
    let attempt = 0;
    // What the next step would read, when that can only be what this step wrote (see `#carry`).
    let carried: Step | undefined = first;
    for (;;) {
      const step = carried ?? (await this.#read(conversationId));
      carried = undefined;
      if (!step) return;
      // Another device's conversation is run by that device: this one only shows it and decides its cards.
      if (!this.#devices.runsHere(step.ownerDevice)) return;
      const { pending, history } = step;
      const expired = pending.filter((pause) => isDue(pause, clock.now()));
      if (expired.length > 0) {
        for (const pause of expired) await this.#expire(pause, 'timeout');
        continue;
      }
      // This run holds the conversation and is not inside a call, so no call is
      // waiting on these any more: the run that asked them died with its tab.
      const lost = pending.filter((pause) => pause.origin === 'elicitation');
      if (lost.length > 0) {
        for (const pause of lost) await settleExpired(this.#ctx, pause.id, 'lost');
        continue;
      }
      if (await this.#closeOrphanedStream(history)) continue;
      // A view's calls (MCP Apps) are settled as the model's are, and never make the model answer (call-from-view.ts).
      const viewed = await settleViewCalls(this.#ctx, history, signal);
      if (viewed.questions.length > 0) return pauseForView(this.#ctx, conversationId, viewed.questions);
      if (viewed.results.length > 0) continue;
      // The state this tab wrote is only written again when it changes.
      const runningHere = step.state.kind === 'running' && step.state.owner === this.#ctx.owner;
      const running: ConversationState = runningHere ? step.state : { kind: 'running', owner: this.#ctx.owner, since: clock.now() };

      const last = lastAssistant(history);
      const open = last ? openCalls(last, history) : [];
      if (last && open.length > 0) {
        if (!runningHere) await this.#setState(conversationId, running);
        const asked = this.#ctx.asks.asked;
        const { held } = step;
        const ctx = held ? { ...this.#ctx, storage: held.storingFirst(this.#ctx.storage) } : this.#ctx;
        // A failure keeps the answer: a retry settles its calls rather than asking the model again.
        const settled = await settleOpenCalls(ctx, last, open, signal, step.calls).catch(async (error: unknown) => {
          await held?.store();
          throw error;
        });
        // Held until now only if nothing was written for it: then it is stored with its questions, or now.
        const pauseWith = held?.isStored === false && settled.waiting > 0 && !signal.aborted ? held : undefined;
        const stored = held && !pauseWith ? await held.store() : undefined;
        if (signal.aborted) return this.#stopped(conversationId);
        if (settled.waiting > 0) return this.#pause(conversationId, settled.questions, pauseWith);
        const base = stored ? { ...step, history: [...step.history.slice(0, -1), stored], ...(step.stored ? { stored: [...step.stored.slice(0, -1), stored] } : {}) } : step;
        // A call that asked the user meanwhile: the decision wrote into the history, which is read back.
        if (this.#ctx.asks.asked === asked) carried = this.#carry(base, { state: running, turns: step.turns, wrote: settled.results });
        continue;
      }
      if (pending.length > 0) {
        for (const pause of pending) this.#pausedHere.note(pause);
        return this.#changeState(conversationId, step.state, { kind: 'paused', pending: pending.length });
      }
      if (!needsModel(history)) return this.#changeState(conversationId, step.state, { kind: 'idle' });
      if (steps >= this.#maxSteps) return this.#stepLimit(conversationId);
      if (signal.aborted) return this.#stopped(conversationId);
      const spending = await spendingGate(this.#ctx, conversationId, step.turns, history, step.alongside, step.sampled, step.stored);
      if ('ask' in spending) return this.#pause(conversationId, [spending.ask]);
      if ('stop' in spending) {
        if (spending.stop !== null) await this.#notice(conversationId, spending.stop);
        return this.#changeState(conversationId, step.state, { kind: 'idle' });
      }

      steps++;
      try {
        if (!runningHere) await this.#setState(conversationId, running);
        const model = await this.#options.model(step.alongside);
        const start = { conversationId, turnIndex: step.turns, stateWhenAnswered: { kind: 'idle' }, ...(step.stored ? { stored: step.stored } : {}) } as const;
        const instructions = { general: await this.#ctx.settings.instructions?.(step.alongside), conversation: step.instructions };
        const answer = await streamAssistantTurn(this.#ctx, model, start, history, signal, instructions);
        const held = answer instanceof HeldAnswer ? answer : undefined;
        const message = answer instanceof HeldAnswer ? answer.message : answer;
        // An answer without tool calls ends the run, its state written with it.
        if (message.toolCalls.length === 0) return;
        attempt = 0;
        // Its calls have ids no stored call had (uniqueCallIds), so nothing is stored for them yet.
        carried = this.#carry(step, { state: running, turns: step.turns + 1, wrote: [message], calls: NO_RECORDS, held });
      } catch (error) {
        if (!(error instanceof ModelError)) throw error;
        if (error.kind === 'aborted' || signal.aborted) return this.#stopped(conversationId);
        if (error.kind === 'network' && !this.#options.network.isOnline()) {
          await this.#setState(conversationId, { kind: 'waiting_for_network', owner: this.#ctx.owner, since: clock.now() });
          if (!(await settles(this.#options.network.whenOnline(signal)))) return this.#stopped(conversationId);
          continue;
        }
        attempt++;
        const delay = retryDelay(error, attempt);
        if (delay === null) return this.#setState(conversationId, errorState(error, history));
        await this.#setState(conversationId, {
          kind: 'retrying',
          owner: this.#ctx.owner,
          attempt,
          retryAt: clock.now() + delay,
          reason: error.message,
        });
        if (!(await settles(clock.sleep(delay, signal)))) return this.#stopped(conversationId);
      }
    }
  }

  /**
   * A step's read: one transaction, with the history re-read only where it
   * can have changed, and the records of the last answer's open calls read in
   * it too (the step after a decision runs the call without a second read).
   */
  async #read(conversationId: string): Promise<Step | undefined> {
    return stepOf(await this.#history.load(conversationId, openCallsToRead));
  }

  /** Whether a run left active may be taken over here: it is, and this device is the one that runs it. */
  #mayTakeOver(conversation: Conversation | undefined): conversation is Conversation {
    return conversation !== undefined && isActive(conversation.state) && this.#devices.runsHere(conversation.ownerDevice);
  }

  /** The conversation, if this device runs it; a `CallerError` (inside the caller's transaction) if another does. */
  #runnableHere(conversation: Conversation): Conversation {
    if (this.#devices.runsHere(conversation.ownerDevice)) return conversation;
    throw new CallerError('elsewhere', `This conversation runs on ${conversation.ownerDevice?.name ?? 'another device'}: continue it there.`);
  }

  /**
   * The next step without reading it back, when nothing but this step can
   * have written since its read: nothing was pending then, so no decision can
   * have been stored since, and this tab holds the conversation, so no other
   * run or message can have been either. (A Stop, or deleting the
   * conversation, aborts this run's signal, which each step checks.)
   */
  #carry(step: Step, next: { state: ConversationState; turns: number; wrote: readonly Message[]; calls?: CallRecords; held?: HeldAnswer | undefined }): Step | undefined {
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

  /**
   * A stream left `streaming` by a dead run: keep its text, mark it, and let
   * the turn be retried. Returns whether it closed one (the caller reads again).
   */
  async #closeOrphanedStream(history: readonly Message[]): Promise<boolean> {
    const orphan = history.find((m): m is AssistantMessage => m.role === 'assistant' && m.status === 'streaming');
    if (!orphan) return false;
    const closed: AssistantMessage = { ...orphan, status: 'interrupted' };
    await this.#ctx.storage.putMessage(closed);
    await this.#notice(orphan.conversationId, 'The previous answer was interrupted before it finished; it is kept above and the turn was retried.');
    return true;
  }

  async #expire(pause: PausePoint, why: 'timeout' | 'abandoned'): Promise<void> {
    const settle = await signedSettlement(this.#ctx, pause, (pending, clock) => expirySettlement({ ...this.#ctx, clock }, pending, why));
    await this.#ctx.storage.settlePausePoint(pause.id, settle);
  }

  /** Pauses the run: the gates' new questions and the paused state, in one transaction; then tells the host. */
  async #pause(conversationId: string, questions: readonly PausePoint[], held?: HeldAnswer): Promise<void> {
    const update = (c: Conversation, pending: number): Conversation => ({ ...(held ? held.update(c) : c), state: { kind: 'paused', pending }, updatedAt: this.#ctx.clock.now() });
    await this.#ctx.storage.pauseConversation(conversationId, questions, update, held && [held.draft]);
    for (const question of questions) this.#ctx.onPause(question);
  }

  async #stopped(conversationId: string): Promise<void> {
    await this.#notice(conversationId, 'Stopped.');
    await this.#setState(conversationId, { kind: 'idle' });
  }

  async #stepLimit(conversationId: string): Promise<void> {
    const message = `Stopped after ${this.#maxSteps} model calls without finishing. Press Continue to let it keep going.`;
    await this.#notice(conversationId, message);
    await this.#setState(conversationId, { kind: 'error', code: 'step_limit', message, retryable: true });
  }

  async #fail(conversationId: string, error: unknown): Promise<void> {
    const state = failureState(error);
    try {
      await this.#setState(conversationId, state);
    } catch {
      // Deleted under the run: there is nothing left to fail, and no one to tell.
      if ((await this.#ctx.storage.getConversation(conversationId).catch(() => null)) === undefined) return;
      // Storage itself is failing (or the tab is going away): no tab can show the error state.
      throw new UnrecordedFailure(conversationId, state.message, { cause: error });
    }
    throw error;
  }

  async #notice(conversationId: string, content: string): Promise<void> {
    const { storage, clock, ids } = this.#ctx;
    await storage.appendMessages(conversationId, [{ v: 1, id: ids.uuid(), conversationId, createdAt: clock.now(), role: 'notice', content }]);
  }

  /** Writes `state` unless this step read it already (only the lock holder moves these states). */
  async #changeState(conversationId: string, current: ConversationState, state: { kind: 'idle' } | { kind: 'paused'; pending: number }): Promise<void> {
    const same = current.kind === state.kind && (current.kind !== 'paused' || (state.kind === 'paused' && current.pending === state.pending));
    if (!same) await this.#setState(conversationId, state);
  }

  async #setState(conversationId: string, state: ConversationState): Promise<void> {
    await this.#ctx.storage.updateConversation(conversationId, (c) => ({ ...c, state, updatedAt: this.#ctx.clock.now() }));
  }
}

/** Storage's "no such conversation", as the caller's error. */
function notFoundForCaller(error: unknown): never {
  throw isNotFound(error) ? new CallerError('not_found', 'That conversation no longer exists.') : error;
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
