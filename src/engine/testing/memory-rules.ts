import type { RuleSet, RulesPort } from '../rules-port.ts';
import type { ApprovalRule, DryRunEvent } from '../records/index.ts';
import { copyRecord } from './copy-record.ts';

/**
 * RulesPort in memory, for engine tests and benchmarks. Records are copied on
 * the way in and out, as IndexedDB would, so a caller that mutates a rule it
 * was given changes nothing stored. Rules are listed in the order they were
 * first stored.
 */
export class MemoryRules implements RulesPort {
  readonly #rules = new Map<string, ApprovalRule>();
  /** Ids removed: a rule's removal is final, as the fold of its events makes it in storage. */
  readonly #removed = new Set<string>();
  #askForEverything = false;
  /** How often `load` was called: tests check that rules are read per call. */
  loads = 0;

  constructor(rules: readonly ApprovalRule[] = []) {
    for (const rule of rules) this.#rules.set(rule.id, copyRecord(rule));
  }

  async load(): Promise<RuleSet> {
    this.loads++;
    return { rules: [...this.#rules.values()].map(copyRecord), askForEverything: this.#askForEverything };
  }

  /** The dry-run events recorded, oldest first (the audit log's, for Dexie). */
  readonly dryRuns: DryRunEvent[] = [];

  async markUsed(ruleId: string, at: number): Promise<void> {
    const rule = this.#rules.get(ruleId);
    if (rule) this.#rules.set(ruleId, { ...rule, lastUsedAt: at, uses: (rule.uses ?? 0) + 1 });
  }

  async recordDryRun(event: DryRunEvent): Promise<void> {
    if (this.dryRuns.some((e) => e.id === event.id)) return;
    this.dryRuns.push(copyRecord(event));
    await this.markUsed(event.rule.id, event.at);
  }

  async put(rule: ApprovalRule): Promise<void> {
    this.store(rule);
  }

  /** Stores a rule at once: how MemoryStorage writes a settlement's rule "in the same transaction". */
  store(rule: ApprovalRule): void {
    if (!this.#removed.has(rule.id)) this.#rules.set(rule.id, copyRecord(rule));
  }

  async remove(ruleId: string): Promise<void> {
    if (this.#rules.delete(ruleId)) this.#removed.add(ruleId);
  }

  /** "Ask for everything" (a setting of the host's, read with the rules). */
  setAskForEverything(on: boolean): void {
    this.#askForEverything = on;
  }
}
