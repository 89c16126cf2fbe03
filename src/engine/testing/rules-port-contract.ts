import { beforeEach, describe, expect, it } from 'vitest';
import type { RulesPort } from '../rules-port.ts';
import { makeRule } from './make-records.ts';

export interface RulesUnderTest {
  rules: RulesPort;
  cleanup(): Promise<void>;
}

/**
 * The semantics every RulesPort must have (the memory one here, Dexie's in
 * src/storage), registered as a vitest `describe` block. Each test gets a
 * fresh, empty port from `makeRules`.
 */
export function describeRulesPort(name: string, makeRules: () => Promise<RulesUnderTest>): void {
  describe(`RulesPort contract: ${name}`, () => {
    let rules: RulesPort;

    beforeEach(async () => {
      const made = await makeRules();
      rules = made.rules;
      return made.cleanup;
    });

    it('starts with no rules, and does not ask for everything', async () => {
      expect(await rules.load()).toEqual({ rules: [], askForEverything: false });
    });

    it('stores rules and reads them back whole', async () => {
      const allow = makeRule({ id: 'r1', match: [{ kind: 'url', pointer: '/url', origin: 'https://api.example.com', pathPrefix: '/v1/' }] });
      const deny = makeRule({ id: 'r2', effect: 'deny', tool: 'delete_*', scope: { kind: 'conversation', conversationId: 'c1' }, reason: 'Never delete.' });
      await rules.put(allow);
      await rules.put(deny);
      const { rules: stored } = await rules.load();
      expect([...stored].sort((a, b) => a.id.localeCompare(b.id))).toEqual([allow, deny]);
    });

    it('switches a rule put again with the same id', async () => {
      await rules.put(makeRule({ enabled: true }));
      await rules.put(makeRule({ enabled: false }));
      expect((await rules.load()).rules).toEqual([makeRule({ enabled: false })]);
    });

    it('never makes a removed rule again: its removal is final', async () => {
      await rules.put(makeRule({ id: 'r1' }));
      await rules.remove('r1');
      await rules.put(makeRule({ id: 'r1' }));
      expect((await rules.load()).rules).toEqual([]);
    });

    it('removes a rule, and removing one that is not there does nothing', async () => {
      await rules.put(makeRule({ id: 'r1' }));
      await rules.put(makeRule({ id: 'r2' }));
      await rules.remove('r1');
      await rules.remove('nope');
      expect((await rules.load()).rules.map((r) => r.id)).toEqual(['r2']);
    });

    it('records when a rule was last used, and never brings a removed rule back', async () => {
      await rules.put(makeRule({ id: 'r1' }));
      await rules.markUsed('r1', 9_000);
      expect((await rules.load()).rules).toEqual([makeRule({ id: 'r1', lastUsedAt: 9_000, uses: 1 })]);
      await rules.remove('r1');
      await rules.markUsed('r1', 9_500);
      expect((await rules.load()).rules).toEqual([]);
    });

    it('records a dry run once, counting it as the rule’s use, and never brings a removed rule back', async () => {
      const rule = makeRule({ id: 'r1', dryRun: true });
      await rules.put(rule);
      const event = {
        v: 1 as const, id: 'dry-1', at: 9_000, kind: 'rule_dry_run' as const, rule, ruleText: 'Allow transfer — everywhere', effect: 'allow' as const,
        conversationId: 'c1', toolCallId: 'call-1', toolName: 'transfer', args: { amount: 5 },
      };
      await rules.recordDryRun(event);
      await rules.recordDryRun(event);
      await rules.recordDryRun({ ...event, id: 'dry-2', at: 9_500 });
      expect((await rules.load()).rules).toEqual([makeRule({ id: 'r1', dryRun: true, lastUsedAt: 9_500, uses: 2 })]);
      await rules.remove('r1');
      await rules.recordDryRun({ ...event, id: 'dry-3' });
      expect((await rules.load()).rules).toEqual([]);
    });

    it('hands out copies: changing a rule read or written changes nothing stored', async () => {
      const rule = makeRule({ match: [{ kind: 'equals', pointer: '/to', value: 'alice' }] });
      await rules.put(rule);
      rule.enabled = false;
      const [read] = (await rules.load()).rules;
      (read!.match[0] as { value: unknown }).value = 'mallory';
      expect((await rules.load()).rules).toEqual([makeRule({ match: [{ kind: 'equals', pointer: '/to', value: 'alice' }] })]);
    });
  });
}
