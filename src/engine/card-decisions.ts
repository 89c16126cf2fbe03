import type { BatchCardResult, BatchDecision, BatchResult } from './batch-decision.ts';
import { claimThenDecide, type DecideHere } from './claim-then-decide.ts';
import type { DecideResult, Decision } from './decision.ts';
import { decisionSettlement } from './decision-settlement.ts';
import type { EngineParts } from './engine-parts.ts';
import { lockName } from './engine-options.ts';
import { openCallsToRead, stepOf } from './loop-step.ts';
import { newRule } from './new-rule.ts';
import type { ApprovalRule, ApprovalRuleDraft, DecidedBy, DeviceSignature, PausePoint } from './records/index.ts';
import type { RunControl } from './run-control.ts';
import { claimedSignature, personSigned, signDecision } from './signed-decision.ts';
import { SignedOutcomes } from './signed-outcomes.ts';
import type { Settlement, SettleResult } from './storage-port.ts';
import { writeUnderLock } from './write-under-lock.ts';

/**
 * Every way a card is decided — a press, a batch, a press that makes a rule,
 * another device's claim — ends in one compare-and-set (`#decide`), which
 * settles the card and resumes its conversation once.
 */
export class CardDecisions {
  readonly #parts: EngineParts;
  readonly #runs: RunControl;

  constructor(parts: EngineParts, runs: RunControl) {
    this.#parts = parts;
    this.#runs = runs;
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
    const batchId = this.#parts.ctx.ids.uuid();
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
   * A card's `Allow in this conversation` / `Always allow`: makes the rule
   * (checked as `addRule` checks it, before anything is written) and decides
   * the card, storing the rule in the decision's own compare-and-set. A
   * decision that is refused — another tab decided first, the card expired, it
   * is invalid — stores no rule either: nothing is granted by a press that
   * did not decide the card.
   */
  async approveWithRule(pausePointId: string, decision: Decision, draft: ApprovalRuleDraft, decidedBy: DecidedBy): Promise<DecideResult> {
    const rule = await newRule(this.#parts.ctx, draft);
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
    const { ctx, devices } = this.#parts;
    const signature = await signDecision(ctx, personSigned(pausePointId, decision, ctx.clock.now()));
    const decideHere: DecideHere = (d, by, r, s) => this.#decide(pausePointId, d, by, r, s);
    // Without sync the press path stays one transaction (settleAndLoadStep): no read before it.
    if (!devices.syncing) return decideHere(decision, decidedBy, rule, signature);
    return claimThenDecide(ctx, devices, pausePointId, decision, decidedBy, rule, decideHere, signature);
  }

  async #decide(pausePointId: string, decision: Decision, decidedBy: DecidedBy, rule?: ApprovalRule, signature?: DeviceSignature): Promise<DecideResult> {
    const { ctx, pausedHere } = this.#parts;
    const now = ctx.clock.now();
    // A card this press finds past its time is expired signed: that settles in a second transaction (signed-outcomes.ts).
    const outcomes = new SignedOutcomes(ctx);
    const settle = (pending: PausePoint) => decisionSettlement(ctx, pending, decision, decidedBy, now, rule, undefined, signature, outcomes);
    const { locked, settled } = await outcomes.settle(async () => {
      const here = pausedHere.conversationOf(pausePointId);
      const locked = here === undefined ? undefined : await this.#settleAndRun(here, pausePointId, settle);
      return { locked, settled: locked ?? (await ctx.storage.settlePausePoint(pausePointId, settle)) };
    });
    // Without the lock, the run that picks the decision up starts now (after whatever run holds it).
    const resume = (conversationId: string) => locked === undefined && this.#runs.kick(conversationId);
    if (!settled.ok) {
      switch (settled.reason) {
        case 'already_decided':
          pausedHere.forget(pausePointId);
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
    pausedHere.forget(pausePointId);
    // A call of this tab waiting on the card goes on now; otherwise the loop picks the decision up.
    ctx.asks.decided(pausePointId);
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
    const { ctx, history, options } = this.#parts;
    const write = async () => {
      let settled!: SettleResult;
      // The cache's first read is always this one: `settled` is set once it returns.
      const loaded = await history.load(conversationId, openCallsToRead, async (fromSeq, callsOf) => {
        const both = await ctx.storage.settleAndLoadStep(pausePointId, settle, conversationId, fromSeq, callsOf);
        settled = both.settled;
        return both.step;
      });
      return { settled, first: stepOf(loaded) };
    };
    const locked = await writeUnderLock(options.locks, lockName(conversationId), write, async ({ settled, first }) => {
      const resumed = settled.ok || settled.reason === 'expired' ? settled.pausePoint.conversationId : undefined;
      if (resumed === conversationId) await this.#runs.advance(conversationId, first);
      else if (resumed !== undefined) this.#runs.kick(resumed);
    });
    if (!locked) return undefined;
    this.#runs.kick(conversationId, locked.run);
    return locked.value.settled;
  }
}
