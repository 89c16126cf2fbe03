import { liveQuery, type Observable } from 'dexie';
import { z } from 'zod';
import type { RuleSet, RulesPort } from '../engine/rules-port.ts';
import { ApprovalRule, type DecidedBy, type DryRunEvent } from '../engine/records/index.ts';
import { ruleEvent, SYSTEM_STAMP, type EventStamp } from './audit-events-repo.ts';
import type { PausepointDb } from './db.ts';
import { ALWAYS_ALLOW_IRREVERSIBLE_KEY } from './always-allow-irreversible.ts';
import { appendRuleEvent, disablesOf, hasRuleEvents, RULE_EVENT_STORES } from './rule-events-repo.ts';
import { rulesHeldBack } from './rule-floors.ts';
import { StorageError, toStorageError } from './storage-error.ts';

/**
 * "Ask for everything" has a settings row of its own, apart from the main
 * settings record: it is switched from the rules list, by itself, and must not
 * be lost (or turned off) by a save of the endpoint form.
 */
export const ASK_FOR_EVERYTHING_KEY = 'askForEverything';
const AskForEverythingRow = z.object({ v: z.literal(1), on: z.boolean() });

/** A stored rule that could not be read: it is ignored, never applied, and listed so the user can remove it. */
export interface UnreadableRule {
  /** The row's key (IndexedDB keys are what they are; shown as text). */
  id: string;
  issues: string[];
}

/** What storage holds: the rules that apply, oldest first, and the rows that were skipped. */
export interface StoredRules extends RuleSet {
  rules: ApprovalRule[];
  unreadable: UnreadableRule[];
  /**
   * This device joined with a pairing link and does not hold yet every rule
   * event the inviting device had (rule-floors.ts): allow rules do not decide
   * until it does, as under "Ask for everything".
   */
  heldBack: boolean;
}

export type UnreadableRuleReport = (problem: UnreadableRule | { id: typeof ASK_FOR_EVERYTHING_KEY; issues: string[] }) => void;

const warnUnreadable: UnreadableRuleReport = ({ id, issues }) => {
  console.warn(`Pausepoint: stored approval rule ${id} is unreadable and was ignored (${issues.join('; ')}).`);
};

/**
 * Every rule and the "Ask for everything" switch, read in one transaction and
 * checked with zod: rules are permissions, so a row that does not parse (a
 * damaged database, a record written by a newer version) is skipped and
 * reported, never applied. An unreadable switch reads as on: the safe side of
 * a permission we cannot read is to ask.
 */
export async function readRules(db: PausepointDb, report: UnreadableRuleReport = warnUnreadable): Promise<StoredRules> {
  let rows: unknown[];
  let switchRow: { value: unknown } | undefined;
  let heldBack: boolean;
  try {
    [rows, switchRow, heldBack] = await db.transaction('r', [db.approvalRules, db.settings, db.ruleEvents], () =>
      Promise.all([db.approvalRules.toArray() as Promise<unknown[]>, db.settings.get(ASK_FOR_EVERYTHING_KEY), rulesHeldBack(db)]),
    );
  } catch (error) {
    throw toStorageError(error);
  }

  const rules: ApprovalRule[] = [];
  const unreadable: UnreadableRule[] = [];
  for (const row of rows) {
    const parsed = ApprovalRule.safeParse(row);
    if (parsed.success) {
      rules.push(parsed.data);
      continue;
    }
    const problem = { id: idOf(row), issues: issuesOf(parsed.error) };
    unreadable.push(problem);
    report(problem);
  }
  rules.sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { rules, askForEverything: askForEverythingOf(switchRow, report), unreadable, heldBack };
}

function askForEverythingOf(row: { value: unknown } | undefined, report: UnreadableRuleReport): boolean {
  if (!row) return false;
  const parsed = AskForEverythingRow.safeParse(row.value);
  if (parsed.success) return parsed.data.on;
  report({ id: ASK_FOR_EVERYTHING_KEY, issues: issuesOf(parsed.error) });
  return true;
}

/** What the Settings page lists: the stored rules, and the title of each conversation a rule is scoped to. */
export interface RulesView extends StoredRules {
  /** Conversation id → title, for the scoped rules' conversations that still exist. */
  conversationTitles: ReadonlyMap<string, string>;
}

/** The rules as the Settings page shows them, following every write in any tab. */
export function liveRules(db: PausepointDb): Observable<RulesView> {
  return liveQuery(() =>
    db.transaction('r', [db.approvalRules, db.settings, db.ruleEvents, db.conversations], async (): Promise<RulesView> => {
      // Reported when the worker reads a row for a decision; the page lists it instead of logging it on every change.
      const stored = await readRules(db, () => {});
      const ids = [...new Set(stored.rules.flatMap((rule) => (rule.scope.kind === 'conversation' ? [rule.scope.conversationId] : [])))];
      const conversationTitles = new Map<string, string>();
      for (const conversation of await db.conversations.bulkGet(ids)) {
        if (conversation) conversationTitles.set(conversation.id, conversation.title);
      }
      return { ...stored, conversationTitles };
    }),
  );
}

/** Who changed a rule, and how its audit event is stamped. */
export interface RuleChange {
  by?: DecidedBy;
  stamp?: EventStamp;
}

/**
 * Validates and stores a new rule: the event that makes it (`created`), and
 * its `rule_created` audit event in the same transaction, so no rule exists
 * that the audit log does not show. A rule's id is made once: putting one
 * that exists changes its switch only (an enable or a disable, as
 * `setRuleEnabled` writes them), and one that was removed stays removed.
 */
export async function putRule(db: PausepointDb, rule: unknown, { by, stamp = SYSTEM_STAMP }: RuleChange = {}): Promise<ApprovalRule> {
  const parsed = checkedRule(rule);
  await write(() =>
    db.transaction('rw', [...RULE_EVENT_STORES, 'auditEvents'], async () => {
      if (await hasRuleEvents(db, parsed.id)) {
        const existing = await db.approvalRules.get(parsed.id);
        if (existing !== undefined && existing.enabled !== parsed.enabled) await switchRule(db, existing, parsed.enabled, by, stamp);
        return;
      }
      await createRule(db, parsed);
      await db.auditEvents.add(ruleEvent('rule_created', parsed, { id: stamp.newId(), at: parsed.createdAt, by }));
    }),
  );
  return parsed;
}

/**
 * The event that makes a rule, and the rule folded from it with this
 * device's use as given (a rule put with its history: tests, restores).
 * In the caller's `rw` transaction over RULE_EVENT_STORES.
 */
export async function createRule(db: PausepointDb, rule: ApprovalRule): Promise<void> {
  const { lastUsedAt, uses, ...definition } = rule;
  await appendRuleEvent(db, rule.id, { kind: 'created', rule: definition }, rule.createdAt);
  if (lastUsedAt !== null || uses !== undefined) await db.approvalRules.update(rule.id, { lastUsedAt, ...(uses === undefined ? {} : { uses }) });
}

/** A rule checked before it is stored: an invalid one is refused with what is wrong. */
export function checkedRule(rule: unknown): ApprovalRule {
  const parsed = ApprovalRule.safeParse(rule);
  if (!parsed.success) {
    throw new StorageError('invalid', `Approval rule not saved: ${z.prettifyError(parsed.error)}`, { cause: parsed.error });
  }
  return parsed.data;
}

/**
 * Removes a rule, readable or not, for good: a `removed` event, which no
 * later event undoes (fold-rule-events.ts). Removing one that is gone is not
 * an error (another tab got there first). A readable rule's removal is an
 * audit event, with the rule as it was; an unreadable row never applied, so
 * its removal is not.
 */
export async function removeRule(db: PausepointDb, id: string, { by, stamp = SYSTEM_STAMP }: RuleChange = {}): Promise<void> {
  await write(() =>
    db.transaction('rw', [...RULE_EVENT_STORES, 'auditEvents'], async () => {
      const row: unknown = await db.approvalRules.get(id);
      if (row === undefined) return;
      const at = stamp.now();
      await appendRuleEvent(db, id, { kind: 'removed' }, at);
      // A row no event made (an unreadable one from before rules had events) goes too.
      await db.approvalRules.delete(id);
      const parsed = ApprovalRule.safeParse(row);
      if (parsed.success) await db.auditEvents.add(ruleEvent('rule_removed', parsed.data, { id: stamp.newId(), at, by }));
    }),
  );
}

/**
 * Switches a rule on or off, as it is: the user read what it matches in the
 * list before pressing Enable (a rule restored from a backup comes back off).
 * A rule whose tool has changed since it was made still does not apply (its
 * definition hash). A switch that changes something is a rule event (an
 * enable names every disable this device has seen of the rule: those it
 * undoes) and an audit event (`rule_enabled`, `rule_disabled`).
 */
export async function setRuleEnabled(db: PausepointDb, id: string, enabled: boolean, { by, stamp = SYSTEM_STAMP }: RuleChange = {}): Promise<ApprovalRule> {
  try {
    return await db.transaction('rw', [...RULE_EVENT_STORES, 'auditEvents'], async () => {
      const row: unknown = await db.approvalRules.get(id);
      if (row === undefined) throw new StorageError('not_found', 'That rule no longer exists.');
      const parsed = ApprovalRule.safeParse(row);
      if (!parsed.success) throw new StorageError('corrupt', `That rule is unreadable and cannot be ${enabled ? 'enabled' : 'disabled'}: ${issuesOf(parsed.error).join('; ')}`);
      if (parsed.data.enabled === enabled) return parsed.data;
      return switchRule(db, parsed.data, enabled, by, stamp);
    });
  } catch (error) {
    throw toStorageError(error);
  }
}

/** An enable or a disable of a stored rule, with its audit event; in the caller's transaction. */
async function switchRule(db: PausepointDb, rule: ApprovalRule, enabled: boolean, by: DecidedBy | undefined, stamp: EventStamp): Promise<ApprovalRule> {
  const at = stamp.now();
  await appendRuleEvent(db, rule.id, enabled ? { kind: 'enabled', undoes: await disablesOf(db, rule.id) } : { kind: 'disabled' }, at);
  const next = { ...rule, enabled };
  await db.auditEvents.add(ruleEvent(enabled ? 'rule_enabled' : 'rule_disabled', next, { id: stamp.newId(), at, by }));
  return next;
}

/**
 * `Make active`: a dry-run rule starts deciding, from the next call on (an
 * `activated` rule event, an enable too). An audit event (`rule_enabled`,
 * the rule as it is now, no longer a dry run, its count of calls started
 * again); a rule that is not a dry run is left as it is.
 */
export async function makeRuleActive(db: PausepointDb, id: string, { by, stamp = SYSTEM_STAMP }: RuleChange = {}): Promise<ApprovalRule> {
  try {
    return await db.transaction('rw', [...RULE_EVENT_STORES, 'auditEvents'], async () => {
      const row: unknown = await db.approvalRules.get(id);
      if (row === undefined) throw new StorageError('not_found', 'That rule no longer exists.');
      const parsed = ApprovalRule.safeParse(row);
      if (!parsed.success) throw new StorageError('corrupt', `That rule is unreadable and cannot be made active: ${issuesOf(parsed.error).join('; ')}`);
      if (!parsed.data.dryRun && parsed.data.enabled) return parsed.data;
      const at = stamp.now();
      await appendRuleEvent(db, id, { kind: 'activated', undoes: await disablesOf(db, id) }, at);
      // Its count starts again: the list says how many calls it decided, apart from those it only would have (the audit log keeps both).
      const { dryRun: _dryRun, uses: _uses, ...rest } = parsed.data;
      const next = { ...rest, enabled: true };
      await db.approvalRules.put(next);
      await db.auditEvents.add(ruleEvent('rule_enabled', next, { id: stamp.newId(), at, by }));
      return next;
    });
  } catch (error) {
    throw toStorageError(error);
  }
}

/** A rule's use: when it last decided (or would have), and how many times. Only a rule still stored is touched. */
async function countUse(db: PausepointDb, ruleId: string, at: number): Promise<void> {
  await db.approvalRules
    .where('id')
    .equals(ruleId)
    .modify((rule) => {
      rule.lastUsedAt = at;
      rule.uses = (rule.uses ?? 0) + 1;
    });
}

export async function setAlwaysAllowIrreversible(db: PausepointDb, on: boolean): Promise<void> {
  await write(() => db.settings.put({ key: ALWAYS_ALLOW_IRREVERSIBLE_KEY, value: { v: 1, on } }));
}

export async function setAskForEverything(db: PausepointDb, on: boolean): Promise<void> {
  await write(() => db.settings.put({ key: ASK_FOR_EVERYTHING_KEY, value: { v: 1, on } }));
}

/**
 * The engine's rules port over Dexie. `load` reads storage for every decision
 * (no cache): a rule removed in one tab, or "Ask for everything" switched on,
 * holds in every other tab's very next call.
 */
export class DexieRules implements RulesPort {
  constructor(
    private readonly db: PausepointDb,
    private readonly report: UnreadableRuleReport = warnUnreadable,
    private readonly stamp: EventStamp = SYSTEM_STAMP,
  ) {}

  async load(): Promise<RuleSet> {
    const { rules, askForEverything, heldBack } = await readRules(this.db, this.report);
    // Rules held back (a new device short of the rule events its pairing link named): allow rules wait, as under Ask for everything.
    return { rules, askForEverything: askForEverything || heldBack };
  }

  /** Only a rule still stored is touched: one removed meanwhile stays removed. */
  async markUsed(ruleId: string, at: number): Promise<void> {
    await write(() => this.db.transaction('rw', this.db.approvalRules, () => countUse(this.db, ruleId, at)));
  }

  async recordDryRun(event: DryRunEvent): Promise<void> {
    const { db } = this;
    await write(() =>
      db.transaction('rw', [db.approvalRules, db.auditEvents], async () => {
        if ((await db.auditEvents.get(event.id)) !== undefined) return;
        await db.auditEvents.add(event);
        await countUse(db, event.rule.id, event.at);
      }),
    );
  }

  async put(rule: ApprovalRule, by?: DecidedBy): Promise<void> {
    await putRule(this.db, rule, { by, stamp: this.stamp });
  }

  async remove(ruleId: string, by?: DecidedBy): Promise<void> {
    await removeRule(this.db, ruleId, { by, stamp: this.stamp });
  }
}

async function write(operation: () => Promise<unknown>): Promise<void> {
  try {
    await operation();
  } catch (error) {
    throw toStorageError(error);
  }
}

function idOf(row: unknown): string {
  const id = typeof row === 'object' && row !== null ? (row as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? id : JSON.stringify(id) ?? '(no id)';
}

function issuesOf(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${issue.path.join('.') || '(row)'}: ${issue.message}`);
}
