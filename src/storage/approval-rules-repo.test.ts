import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import type { ApprovalRule } from '../engine/records/index.ts';
import { makeConversation } from '../engine/testing/make-records.ts';
import { describeRulesPort } from '../engine/testing/rules-port-contract.ts';
import { liveAlwaysAllowIrreversible } from './always-allow-irreversible.ts';
import {
  ASK_FOR_EVERYTHING_KEY,
  DexieRules,
  liveRules,
  makeRuleActive,
  putRule,
  readRules,
  removeRule,
  setAlwaysAllowIrreversible,
  setAskForEverything,
  setRuleEnabled,
  type UnreadableRuleReport,
} from './approval-rules-repo.ts';
import type { PausepointDb } from './db.ts';
import { openTestDb, useTestDb } from './testing/open-test-db.ts';
import { waitForEmission } from './wait-for-emission.ts';

const rule = (overrides: Partial<ApprovalRule> = {}): ApprovalRule => ({
  v: 1,
  id: 'rule-1',
  effect: 'allow',
  tool: 'http_request',
  match: [
    { kind: 'one_of', pointer: '/method', values: ['GET', 'HEAD'] },
    { kind: 'url', pointer: '/url', origin: 'https://docs.example' },
  ],
  scope: { kind: 'everywhere' },
  source: 'settings',
  createdAt: 1_000,
  lastUsedAt: null,
  expiresAt: null,
  definitionHash: 'hash-1',
  enabled: true,
  ...overrides,
});

describe('approval rules repository', () => {
  let db: PausepointDb;
  useTestDb((fresh) => (db = fresh));

  it('stores rules and reads them back, oldest first, with no switch set', async () => {
    await putRule(db, rule({ id: 'b', createdAt: 2_000 }));
    await putRule(db, rule({ id: 'a', createdAt: 3_000, effect: 'deny', reason: 'Never.' }));
    await putRule(db, rule({ id: 'c', createdAt: 2_000 }));
    const stored = await readRules(db);
    expect(stored.rules.map((r) => r.id)).toEqual(['b', 'c', 'a']);
    expect(stored.rules[2]).toEqual(rule({ id: 'a', createdAt: 3_000, effect: 'deny', reason: 'Never.' }));
    expect(stored.askForEverything).toBe(false);
    expect(stored.unreadable).toEqual([]);
  });

  it('refuses to store a rule that does not parse', async () => {
    await expect(putRule(db, { ...rule(), effect: 'always' })).rejects.toMatchObject({ name: 'StorageError', code: 'invalid' });
    await expect(putRule(db, { ...rule(), scope: { kind: 'conversation' } })).rejects.toMatchObject({ code: 'invalid' });
    expect(await db.approvalRules.count()).toBe(0);
  });

  it('skips and reports a corrupt row, and never applies it', async () => {
    await putRule(db, rule({ id: 'good' }));
    // Written behind the schema's back: a damaged database, or a newer version's record.
    await db.approvalRules.bulkPut([
      { ...rule({ id: 'bad-effect' }), effect: 'allow-all' } as unknown as ApprovalRule,
      { ...rule({ id: 'newer' }), v: 2 } as unknown as ApprovalRule,
      { id: 'bare' } as unknown as ApprovalRule,
    ]);
    const report = vi.fn<UnreadableRuleReport>();
    const stored = await readRules(db, report);

    expect(stored.rules.map((r) => r.id)).toEqual(['good']);
    expect(stored.unreadable.map((u) => u.id).sort()).toEqual(['bad-effect', 'bare', 'newer']);
    expect(report).toHaveBeenCalledTimes(3);
    expect(report).toHaveBeenCalledWith({ id: 'bad-effect', issues: [expect.stringContaining('effect:')] });
    expect(await new DexieRules(db, () => {}).load()).toEqual({ rules: [rule({ id: 'good' })], askForEverything: false });
  });

  it('keeps "Ask for everything" in a row of its own, and reads a broken one as on', async () => {
    await db.settings.put({ key: 'settings', value: { v: 1, provider: 'demo' } });
    await setAskForEverything(db, true);
    expect((await readRules(db)).askForEverything).toBe(true);
    expect(await db.settings.get(ASK_FOR_EVERYTHING_KEY)).toEqual({ key: ASK_FOR_EVERYTHING_KEY, value: { v: 1, on: true } });
    expect(await db.settings.get('settings')).toEqual({ key: 'settings', value: { v: 1, provider: 'demo' } });

    await setAskForEverything(db, false);
    expect((await readRules(db)).askForEverything).toBe(false);

    await db.settings.put({ key: ASK_FOR_EVERYTHING_KEY, value: 'no' });
    const report = vi.fn<UnreadableRuleReport>();
    expect((await readRules(db, report)).askForEverything).toBe(true);
    expect(report).toHaveBeenCalledWith({ id: ASK_FOR_EVERYTHING_KEY, issues: [expect.any(String)] });
  });

  it('is the engine’s rules port: load, put, markUsed, remove', async () => {
    const port = new DexieRules(db);
    await port.put(rule());
    await port.markUsed('rule-1', 5_000);
    expect((await port.load()).rules).toEqual([rule({ lastUsedAt: 5_000, uses: 1 })]);

    await port.remove('rule-1');
    expect((await port.load()).rules).toEqual([]);
    // A rule removed meanwhile (another tab) is not brought back by marking it used.
    await port.markUsed('rule-1', 6_000);
    expect(await db.approvalRules.count()).toBe(0);
    await expect(port.remove('rule-1')).resolves.toBeUndefined();
  });

  it('enables a disabled rule as it is, and refuses one that is gone or unreadable', async () => {
    await putRule(db, rule({ enabled: false, source: 'backup' }));
    expect(await setRuleEnabled(db, 'rule-1', true)).toEqual(rule({ enabled: true, source: 'backup' }));
    expect((await readRules(db)).rules).toEqual([rule({ enabled: true, source: 'backup' })]);
    await expect(setRuleEnabled(db, 'gone', true)).rejects.toMatchObject({ name: 'StorageError', code: 'not_found' });
    await db.approvalRules.put({ id: 'bare', enabled: false } as unknown as ApprovalRule);
    await expect(setRuleEnabled(db, 'bare', true)).rejects.toMatchObject({ code: 'corrupt' });
    expect(await db.approvalRules.get('bare')).toEqual({ id: 'bare', enabled: false });
  });

  it('keeps a rule as the fold of its events: removal is final, a put again only switches it, its use stays here', async () => {
    const port = new DexieRules(db);
    await port.put(rule());
    await port.markUsed('rule-1', 5_000);
    await port.put(rule({ enabled: false }));
    expect((await readRules(db)).rules).toEqual([rule({ enabled: false, lastUsedAt: 5_000, uses: 1 })]);
    expect((await db.ruleEvents.toArray()).map((e) => [e.seq, e.change.kind])).toEqual([[1, 'created'], [2, 'disabled']]);
    await port.remove('rule-1');
    await port.put(rule());
    await expect(setRuleEnabled(db, 'rule-1', true)).rejects.toMatchObject({ code: 'not_found' });
    expect((await readRules(db)).rules).toEqual([]);
    // A use writes no event: using a rule never publishes anything of it.
    expect((await db.ruleEvents.toArray()).map((e) => e.change.kind)).toEqual(['created', 'disabled', 'removed']);
  });

  it('removes an unreadable row too', async () => {
    await db.approvalRules.put({ id: 'bare' } as unknown as ApprovalRule);
    await removeRule(db, 'bare');
    expect((await readRules(db, () => {})).unreadable).toEqual([]);
  });

  it('follows every write live, the switch included', async () => {
    const live = liveRules(db);
    expect(await waitForEmission(live, () => true)).toEqual({ rules: [], askForEverything: false, unreadable: [], heldBack: false, conversationTitles: new Map() });

    const added = waitForEmission(live, (s) => s.rules.length === 1);
    await putRule(db, rule());
    expect((await added).rules[0]?.id).toBe('rule-1');

    const switched = waitForEmission(live, (s) => s.askForEverything);
    await setAskForEverything(db, true);
    expect((await switched).rules).toHaveLength(1);

    const removed = waitForEmission(live, (s) => s.rules.length === 0);
    await removeRule(db, 'rule-1');
    expect((await removed).askForEverything).toBe(true);
  });

  it('names the conversation a scoped rule belongs to, while it exists', async () => {
    await db.conversations.put(makeConversation({ id: 'c1', title: 'Trip to Lisbon' }));
    await putRule(db, rule({ id: 'scoped', scope: { kind: 'conversation', conversationId: 'c1' } }));
    await putRule(db, rule({ id: 'orphan', scope: { kind: 'conversation', conversationId: 'gone' } }));
    const live = liveRules(db);
    expect((await waitForEmission(live, (s) => s.rules.length === 2)).conversationTitles).toEqual(new Map([['c1', 'Trip to Lisbon']]));
    const renamed = waitForEmission(live, (s) => s.conversationTitles.get('c1') === 'Lisbon, May');
    await db.conversations.update('c1', { title: 'Lisbon, May' });
    expect((await renamed).rules).toHaveLength(2);
  });

  it('lists an unreadable row live without logging it on every emission', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      await db.approvalRules.put({ id: 'bare' } as unknown as ApprovalRule);
      const stored = await waitForEmission(liveRules(db), () => true);
      expect(stored.unreadable).toEqual([{ id: 'bare', issues: expect.arrayContaining([expect.stringContaining('effect')]) }]);
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });
});

describeRulesPort('DexieRules', async () => {
  const { db, cleanup } = await openTestDb();
  return { rules: new DexieRules(db), cleanup };
});

describe('offering “Always allow” for irreversible actions', () => {
  let db: PausepointDb;
  useTestDb((fresh) => (db = fresh));
  it('is off until turned on, and an unreadable row counts as off', async () => {
    const live = () => liveAlwaysAllowIrreversible(db);
    expect(await waitForEmission(live(), () => true)).toBe(false);
    await setAlwaysAllowIrreversible(db, true);
    expect(await waitForEmission(live(), (on) => on)).toBe(true);
    await db.settings.put({ key: 'offerAlwaysAllowIrreversible', value: { v: 1, on: 'yes' } });
    expect(await waitForEmission(live(), () => true)).toBe(false);
  });
});

describe('approval rules in the audit log', () => {
  let db: PausepointDb;
  useTestDb((fresh) => (db = fresh));
  const by = { tabId: 'tab-1', deviceId: 'device-1', label: 'Chromium' };
  const events = async () => (await db.auditEvents.toArray()).sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : 1));
  let n = 0;
  const stamp = { newId: () => `ev-${++n}`, now: () => 5_000 + n };

  it('records a rule made, with who made it and its words, once (storing it again is not a new rule)', async () => {
    const port = new DexieRules(db, undefined, stamp);
    await port.put(rule(), by);
    await port.put({ ...rule(), lastUsedAt: 2_000 }, by);
    expect(await events()).toEqual([
      { v: 1, id: expect.any(String), at: 1_000, kind: 'rule_created', rule: rule(), by, ruleText: 'Allow http_request when method is GET or HEAD and url is on https://docs.example — everywhere' },
    ]);
  });

  it('records a removal with the rule as it was, and nothing for a rule already gone or an unreadable row', async () => {
    const port = new DexieRules(db, undefined, stamp);
    await putRule(db, rule({ lastUsedAt: 3_000 }));
    await db.approvalRules.put({ id: 'broken' } as unknown as ApprovalRule);
    await port.remove('rule-1', by);
    await port.remove('rule-1', by);
    await removeRule(db, 'broken');
    const removed = (await events()).filter((event) => event.kind === 'rule_removed');
    expect(removed).toEqual([expect.objectContaining({ kind: 'rule_removed', rule: rule({ lastUsedAt: 3_000 }), by })]);
    expect(await db.approvalRules.count()).toBe(0);
  });

  it('records switching a rule on or off, only when it changes', async () => {
    await putRule(db, rule({ enabled: false, source: 'backup' }));
    await setRuleEnabled(db, 'rule-1', true, { by, stamp });
    await setRuleEnabled(db, 'rule-1', true, { by, stamp });
    await setRuleEnabled(db, 'rule-1', false, { stamp });
    expect((await events()).map((event) => [event.kind, event.kind === 'tool_definition_changed' || event.kind === 'push_sent' ? null : event.rule.enabled])).toEqual([
      ['rule_created', false],
      ['rule_enabled', true],
      ['rule_disabled', false],
    ]);
  });

  it('Make active turns a dry-run rule on, recorded as rule_enabled with the rule no longer a dry run', async () => {
    await putRule(db, rule({ dryRun: true, uses: 4 }), { by, stamp });
    const active = await makeRuleActive(db, 'rule-1', { by, stamp });
    expect(active).toEqual(rule());
    expect((await readRules(db)).rules).toEqual([rule()]);
    await makeRuleActive(db, 'rule-1', { by, stamp });
    expect((await events()).map((event) => [event.kind, event.kind === 'tool_definition_changed' || event.kind === 'push_sent' ? null : event.rule.dryRun ?? false])).toEqual([
      ['rule_created', true],
      ['rule_enabled', false],
    ]);
    await expect(makeRuleActive(db, 'gone', { stamp })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('writes no event when the rule write fails (one transaction)', async () => {
    await expect(putRule(db, { ...rule(), effect: 'maybe' })).rejects.toThrow(/not saved/);
    expect(await db.auditEvents.count()).toBe(0);
  });
});
