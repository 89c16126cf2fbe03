import { NEW_TITLE, titleFrom } from './conversation-title.ts';
import { editableMessage, editedConversation, keptFiles } from './edit-message.ts';
import type { EngineParts } from './engine-parts.ts';
import { CallerError, isNotFound } from './errors.ts';
import { openCallsToRead, stepOf, type Step } from './loop-step.ts';
import { expirySettlement } from './pause-expiry.ts';
import { newConversation, type AttachmentRef, type Conversation, type PausePoint } from './records/index.ts';
import { regeneratedConversation } from './regenerate.ts';
import type { RunControl } from './run-control.ts';
import { runnableHere } from './runnable-here.ts';
import { OutcomeNotSignedYet, SignedOutcomes } from './signed-outcomes.ts';
import type { MessageDraft } from './storage-port.ts';
import { switchedConversation } from './switch-version.ts';

/**
 * What the person does to a conversation itself: creates it, sends, edits a
 * message, regenerates an answer, switches versions, renames it, sets its
 * instructions, deletes it. Those that make the model answer write under the
 * conversation's lock and run under the same lock (RunControl.writeAndRun).
 */
export class ConversationEdits {
  readonly #parts: EngineParts;
  readonly #runs: RunControl;

  constructor(parts: EngineParts, runs: RunControl) {
    this.#parts = parts;
    this.#runs = runs;
  }

  async create(title = NEW_TITLE): Promise<string> {
    const { ctx, devices } = this.#parts;
    const created = newConversation({ id: ctx.ids.uuid(), title, now: ctx.clock.now() });
    const ownerDevice = devices.ownerForNew();
    const conversation = ownerDevice ? { ...created, ownerDevice } : created;
    await ctx.storage.putConversation(conversation);
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
    const id = conversationId ?? (await this.create());
    await this.#runs.writeAndRun(id, () => this.#storeUserMessage(id, text, { attachments }));
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
    const { ctx, history: cache } = this.#parts;
    // Read before the lock: whatever is appended meanwhile comes after the message, and does not move the fork (edit-message.ts).
    const { history } = await cache.load(conversationId);
    const target = editableMessage(history, messageId);
    const attachments = keptFiles(target, text, keep);
    const branch = { id: ctx.ids.uuid(), createdAt: ctx.clock.now() };
    const update = (c: Conversation) => editedConversation(c, history, target, branch);
    const version = { branch: branch.id, update };
    await this.#runs.writeAndRun(conversationId, () => this.#storeUserMessage(conversationId, text, { attachments, version }));
  }

  /**
   * `Regenerate`: asks the model again from the same history as the shown
   * version's last answer; that answer stays as a version. Refused while the
   * conversation is active or a card waits, and when there is no answer.
   */
  async regenerate(conversationId: string): Promise<void> {
    const { ctx, devices } = this.#parts;
    const branch = { id: ctx.ids.uuid(), createdAt: ctx.clock.now() };
    await this.#runs.writeAndRun(conversationId, async () => {
      const { history } = await this.#parts.history.load(conversationId);
      const running = { kind: 'running', owner: ctx.owner, since: ctx.clock.now() } as const;
      await ctx.storage
        .updateConversation(conversationId, (c) => ({ ...regeneratedConversation(runnableHere(devices, c), history, branch), state: running }))
        .catch(notFoundForCaller);
      return undefined;
    });
  }

  /** `Previous version` / `Next version`: shows the version `branchId`; runs nothing (switch-version.ts). */
  async switchVersion(conversationId: string, branchId: string): Promise<void> {
    const { ctx, devices } = this.#parts;
    await ctx.storage.updateConversation(conversationId, (c) => switchedConversation(runnableHere(devices, c), branchId)).catch(notFoundForCaller);
  }

  /**
   * Renames without touching `updatedAt`: the list is ordered by activity, and
   * a rename is not activity. In one transaction, so a concurrent write by a
   * run (state, nextSeq) is never lost to a stale copy.
   */
  async rename(conversationId: string, title: string): Promise<void> {
    await this.#parts.ctx.storage.updateConversation(conversationId, (c) => ({ ...c, title }));
  }

  /**
   * Sets the conversation's own custom instructions (empty clears them), sent
   * from its next model call on. Like a rename: not activity, one transaction.
   * Saved by the person, they are theirs: instructions a file brought in
   * switched off (`instructionsOff`) are turned on by saving them.
   */
  async setInstructions(conversationId: string, instructions: string): Promise<void> {
    const text = instructions.trim();
    await this.#parts.ctx.storage.updateConversation(conversationId, ({ instructions: _old, instructionsOff: _off, ...c }) => (text ? { ...c, instructions: text } : c));
  }

  /** Deletes a conversation with everything of it (its audit trail too), stopping its run wherever it runs. */
  async delete(conversationId: string): Promise<void> {
    // Whichever tab runs it stops before its next step, rather than acting for a conversation that is gone.
    // A copy of another device's conversation goes from this device only: that device's run goes on.
    if (!this.#runs.stop(conversationId)) this.#parts.options.tabs?.requestStop(conversationId);
    await this.#parts.ctx.storage.deleteConversation(conversationId);
  }

  /**
   * The user's message, with the conversation marked running in its
   * transaction: a tab that dies before its run starts leaves a run for
   * another tab to recover, not an unanswered question. The run that follows
   * finds the state already set, and starts from the step read in the same
   * transaction: it holds the lock that write was made under, so nothing
   * else can have been written since.
   *
   * `attachments`: the message's files, stored before it (src/attachments); `version`: the new version an Edit starts with it.
   */
  async #storeUserMessage(
    id: string,
    text: string,
    { attachments, version }: { attachments?: readonly AttachmentRef[] | undefined; version?: { branch: string; update: (c: Conversation) => Conversation } } = {},
  ): Promise<Step | undefined> {
    const { ctx, devices, history } = this.#parts;
    const { storage, clock, ids } = ctx;
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
      ...(version ? version.update(runnableHere(devices, c)) : runnableHere(devices, c)),
      title: c.title === NEW_TITLE ? titleFrom(titleText) : c.title,
      state: { kind: 'running', owner: ctx.owner, since: clock.now() },
    });
    // The cards set aside are signed over exactly what the transaction writes, at the message's time (signed-outcomes.ts).
    const at = { ...ctx, clock: { ...clock, now: () => message.createdAt } };
    const outcomes = new SignedOutcomes(ctx);
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
      .settle(() => history.load(id, openCallsToRead, (fromSeq, callsOf) => storage.appendAndLoadStep(id, [message], running, setAside, fromSeq, callsOf)), signPending)
      .catch(notFoundForCaller);
    return stepOf(loaded);
  }
}

/** Storage's "no such conversation", as the caller's error. */
function notFoundForCaller(error: unknown): never {
  throw isNotFound(error) ? new CallerError('not_found', 'That conversation no longer exists.') : error;
}
