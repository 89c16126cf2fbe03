import type { BatchDecision, BatchResult } from './batch-decision.ts';
import { startViewCall, viewCallOutcome, type ViewCallOutcome, type ViewCallRequest } from './call-from-view.ts';
import { CardDecisions } from './card-decisions.ts';
import { ConversationEdits } from './conversation-edits.ts';
import type { DecideResult, Decision } from './decision.ts';
import { engineParts, type EngineParts } from './engine-parts.ts';
import { lockName, type EngineOptions } from './engine-options.ts';
import { newRule } from './new-rule.ts';
import { previewRule, type RulePreview, type StoredCall } from './preview-rule.ts';
import type { ApprovalRule, ApprovalRuleDraft, AttachmentRef, DecidedBy, DeviceSignature } from './records/index.ts';
import { RunControl } from './run-control.ts';

/**
 * The engine's intents, as the worker and the tests call them. Each is kept
 * with its family: the loop in run-loop.ts, where and when it runs in
 * run-control.ts, decisions in card-decisions.ts, what the person does to a
 * conversation in conversation-edits.ts; the rest in a file of its own
 * (new-rule.ts, preview-rule.ts, call-from-view.ts). This class only wires
 * them to one set of ports (engine-parts.ts).
 */
export class Engine {
  readonly #parts: EngineParts;
  readonly #runs: RunControl;
  readonly #decisions: CardDecisions;
  readonly #edits: ConversationEdits;

  constructor(options: EngineOptions) {
    this.#parts = engineParts(options);
    this.#runs = new RunControl(this.#parts);
    this.#decisions = new CardDecisions(this.#parts, this.#runs);
    this.#edits = new ConversationEdits(this.#parts, this.#runs);
  }

  /* ── the conversation (conversation-edits.ts) ─────────────────────────── */

  createConversation(title?: string): Promise<string> {
    return this.#edits.create(title);
  }

  /** Stores a user message and starts the loop; resolves once the message is stored. */
  send(conversationId: string | null, text: string, attachments?: readonly AttachmentRef[]): Promise<{ conversationId: string }> {
    return this.#edits.send(conversationId, text, attachments);
  }

  /** `Edit` → `Send`: a new version from the message `messageId`; `keep`: the ids of its files the version keeps. */
  editMessage(conversationId: string, messageId: string, text: string, keep?: readonly string[]): Promise<void> {
    return this.#edits.editMessage(conversationId, messageId, text, keep);
  }

  /** `Regenerate`: the model asked again from the shown version's last answer's history. */
  regenerate(conversationId: string): Promise<void> {
    return this.#edits.regenerate(conversationId);
  }

  /** `Previous version` / `Next version`: shows the version `branchId`; runs nothing. */
  switchVersion(conversationId: string, branchId: string): Promise<void> {
    return this.#edits.switchVersion(conversationId, branchId);
  }

  /** Renames without touching `updatedAt` (a rename is not activity). */
  renameConversation(conversationId: string, title: string): Promise<void> {
    return this.#edits.rename(conversationId, title);
  }

  /** The conversation's own custom instructions (empty clears them), from its next model call on. */
  setConversationInstructions(conversationId: string, instructions: string): Promise<void> {
    return this.#edits.setInstructions(conversationId, instructions);
  }

  /** Deletes a conversation with everything of it (its audit trail too), stopping its run wherever it runs. */
  deleteConversation(conversationId: string): Promise<void> {
    return this.#edits.delete(conversationId);
  }

  /* ── cards (card-decisions.ts) ─────────────────────────────────────────── */

  /** Records a human decision (first one wins) and resumes the loop. */
  decide(pausePointId: string, decision: Decision, decidedBy: DecidedBy): Promise<DecideResult> {
    return this.#decisions.decide(pausePointId, decision, decidedBy);
  }

  /** `Approve all` / `Decline all`: each card decided as `decide` does, under one batch id. */
  decideBatch(pausePointIds: readonly string[], decision: BatchDecision, decidedBy: DecidedBy, viewHashes?: readonly string[]): Promise<BatchResult> {
    return this.#decisions.decideBatch(pausePointIds, decision, decidedBy, viewHashes);
  }

  /** `Allow in this conversation` / `Always allow`: the rule is stored only with the decision it came with. */
  approveWithRule(pausePointId: string, decision: Decision, draft: ApprovalRuleDraft, decidedBy: DecidedBy): Promise<DecideResult> {
    return this.#decisions.approveWithRule(pausePointId, decision, draft, decidedBy);
  }

  /** A decision another device claimed first on the sync server, applied through the same compare-and-set. */
  applyClaimed(pausePointId: string, decision: Decision, decidedBy: DecidedBy, signature?: DeviceSignature): Promise<DecideResult> {
    return this.#decisions.applyClaimed(pausePointId, decision, decidedBy, signature);
  }

  /**
   * MCP Apps: a `tools/call` an app's view sent, stored as its own row and settled as a model's call is, under
   * the conversation's lock (call-from-view.ts). Resolves once it is decided and, if approved, has run, wherever
   * that happens; `signal` ends only the waiting.
   */
  async callFromView(request: ViewCallRequest, signal?: AbortSignal): Promise<ViewCallOutcome> {
    const { ctx, devices, options } = this.#parts;
    const started = await options.locks.withLock(lockName(request.conversationId), () => startViewCall(ctx, devices, request));
    return 'outcome' in started ? started : viewCallOutcome(ctx, request.conversationId, started.callId, started.seq, signal);
  }

  /* ── rules (new-rule.ts, preview-rule.ts) ──────────────────────────────── */

  /**
   * Makes an approval rule and stores it: the id, times and the tool's
   * definition hash are filled in here, so every rule is bound the same way
   * whoever made it. It applies from the very next call, in every tab (each
   * call reads the rules afresh). Throws `CallerError` for a rule that could
   * not match what it says.
   */
  async addRule(draft: ApprovalRuleDraft, by?: DecidedBy): Promise<ApprovalRule> {
    const rule = await newRule(this.#parts.ctx, draft);
    await this.#parts.ctx.rules.put(rule, by);
    return rule;
  }

  /**
   * What a draft rule would have decided among `calls` (the stored calls,
   * newest first), before it is saved: checked as `addRule` checks it, and
   * judged with the rules as they are now. Stores nothing.
   */
  async previewRule(draft: ApprovalRuleDraft, calls: readonly StoredCall[]): Promise<RulePreview> {
    const { ctx } = this.#parts;
    const rule = await newRule(ctx, draft);
    return previewRule(rule, await ctx.rules.load(), calls, ctx.clock.now());
  }

  /** Removes an approval rule: the next call it would have decided is decided without it. */
  async removeRule(ruleId: string, by?: DecidedBy): Promise<void> {
    await this.#parts.ctx.rules.remove(ruleId, by);
  }

  /* ── runs (run-control.ts) ─────────────────────────────────────────────── */

  /** Stops this tab's run of the conversation, or asks the tab or device that runs it. */
  stopEverywhere(conversationId: string): Promise<void> {
    return this.#runs.stopEverywhere(conversationId);
  }

  /** Aborts this tab's run of the conversation. Returns false when this tab is not running it. */
  stop(conversationId: string): boolean {
    return this.#runs.stop(conversationId);
  }

  /** Retry after an error, or Continue after the step limit or an interruption. */
  retry(conversationId: string): Promise<void> {
    return this.#runs.retry(conversationId);
  }

  /** Takes over an orphaned run if no live tab holds it. Returns whether anything was recovered. */
  recover(conversationId: string): Promise<boolean> {
    return this.#runs.recover(conversationId);
  }

  /** Waits until no other tab holds the conversation, then takes it over if it was left active. */
  watch(conversationId: string): Promise<boolean> {
    return this.#runs.watch(conversationId);
  }

  /** Runs the loop for a conversation now (waiting for any other tab's run to end first). */
  run(conversationId: string): Promise<void> {
    return this.#runs.run(conversationId);
  }

  /** Resolves when every run this engine started in the background has ended. */
  whenIdle(): Promise<void> {
    return this.#runs.whenIdle();
  }
}
