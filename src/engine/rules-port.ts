import type { ApprovalRule, DecidedBy, DryRunEvent } from './records/index.ts';

/** Every rule the user has, and whether allow rules are suspended ("Ask for everything"). */
export interface RuleSet {
  /**
   * Never changed once handed out: the evaluator indexes an array it sees
   * again (rule-index.ts). A port may hand out the same array while nothing
   * changed — the cheapest case — and must hand out a new one when anything did.
   */
  rules: readonly ApprovalRule[];
  askForEverything: boolean;
}

/**
 * The user's approval rules. Read for each decision rather than cached, so a
 * rule made or removed in another tab applies to the very next call.
 */
export interface RulesPort {
  load(): Promise<RuleSet>;
  /** Records that a rule decided a call (shown as "last used"); a rule removed meanwhile stays removed. */
  markUsed(ruleId: string, at: number): Promise<void>;
  /**
   * Stores a new rule. (Made through `Engine.addRule`, which fills it in.) A
   * new rule is an audit event, stored with it; `by` is who made it. An id is
   * made once: putting one that is stored switches it on or off only, and
   * one that was removed stays removed.
   */
  put(rule: ApprovalRule, by?: DecidedBy): Promise<void>;
  /** Removes a rule for good (an audit event, stored with the removal); removing one that is not there does nothing. */
  remove(ruleId: string, by?: DecidedBy): Promise<void>;
  /**
   * Records that a dry-run rule would have decided a call: the audit event,
   * and the rule's use (count and time), in one transaction. An event whose id
   * is stored already (a run that died after recording it) is not recorded
   * twice; a rule removed meanwhile is not brought back.
   */
  recordDryRun(event: DryRunEvent): Promise<void>;
}
