import { describe, expect, it } from 'vitest';
import { evaluateRules, type RuleCall } from './evaluate-rules.ts';
import type { RuleSet } from './rules-port.ts';
import type { ApprovalRule } from './records/index.ts';
import { ruleIndex } from './rule-index.ts';
import { makeRule } from './testing/make-records.ts';

const NOW = 10_000;
const call = (overrides: Partial<RuleCall> = {}): RuleCall => ({
  toolName: 'transfer',
  args: { amount: 50, to: 'alice' },
  conversationId: 'c1',
  definitionHash: 'hash-now',
  ...overrides,
});
const set = (rules: ApprovalRule[], askForEverything = false): RuleSet => ({ rules, askForEverything });
/**
 * The verdict, the same on both of the evaluator's paths: a rules array seen
 * for the first time is scanned, one seen again is indexed (rule-index.ts).
 */
function verdict(rules: ApprovalRule[], c: RuleCall = call(), askForEverything = false) {
  const rulesSet = set(rules, askForEverything);
  const scanned = evaluateRules(rulesSet, c, NOW);
  if (rules.length > 0) expect(ruleIndex(rulesSet.rules)).toBeDefined();
  expect(evaluateRules(rulesSet, c, NOW)).toEqual(scanned);
  return scanned;
}

const allow = makeRule({ id: 'allow' });
const ask = makeRule({ id: 'ask', effect: 'ask' });
const deny = makeRule({ id: 'deny', effect: 'deny', reason: 'No money moves today.' });

describe('evaluateRules: precedence', () => {
  it('leaves a call no rule matches to the tool’s own gate', () => {
    expect(verdict([])).toEqual({ effect: 'none', stale: [], dryRuns: [] });
    expect(verdict([makeRule({ tool: 'save_note' })])).toEqual({ effect: 'none', stale: [], dryRuns: [] });
  });

  it('deny beats ask beats allow, whatever their order', () => {
    for (const rules of [[allow, ask, deny], [deny, ask, allow], [ask, deny, allow]]) {
      expect(verdict(rules)).toMatchObject({ effect: 'deny', rule: { id: 'deny' } });
    }
    for (const rules of [[allow, ask], [ask, allow]]) expect(verdict(rules)).toMatchObject({ effect: 'ask', rule: { id: 'ask' } });
    expect(verdict([allow])).toMatchObject({ effect: 'allow', rule: { id: 'allow' } });
  });

  it('names the first matching rule of the winning effect', () => {
    const second = makeRule({ id: 'allow-2' });
    expect(verdict([allow, second])).toMatchObject({ rule: { id: 'allow' } });
  });
});

describe('evaluateRules: which rules apply', () => {
  it('skips disabled rules', () => {
    expect(verdict([{ ...deny, enabled: false }, allow])).toMatchObject({ effect: 'allow' });
  });

  it('skips expired rules, and applies one until the moment it expires', () => {
    expect(verdict([{ ...deny, expiresAt: NOW }, allow])).toMatchObject({ effect: 'allow' });
    expect(verdict([{ ...deny, expiresAt: NOW + 1 }, allow])).toMatchObject({ effect: 'deny' });
  });

  it('applies a conversation rule in its conversation only; an everywhere rule in all', () => {
    const here = makeRule({ id: 'here', scope: { kind: 'conversation', conversationId: 'c1' } });
    expect(verdict([here], call({ conversationId: 'c1' }))).toMatchObject({ effect: 'allow', rule: { id: 'here' } });
    expect(verdict([here], call({ conversationId: 'c2' }))).toEqual({ effect: 'none', stale: [], dryRuns: [] });
    expect(verdict([allow], call({ conversationId: 'c2' }))).toMatchObject({ effect: 'allow' });
  });

  it('matches tools by exact name or glob, and nothing else', () => {
    const globbed = makeRule({ tool: 'trans*' });
    expect(verdict([globbed])).toMatchObject({ effect: 'allow' });
    expect(verdict([makeRule({ tool: 'transfe?' })])).toMatchObject({ effect: 'allow' });
    expect(verdict([makeRule({ tool: 'tran' })])).toMatchObject({ effect: 'none' });
    expect(verdict([makeRule({ tool: 'trans.*' })])).toMatchObject({ effect: 'none' });
    expect(verdict([makeRule({ tool: '*' })], call({ toolName: 'anything' }))).toMatchObject({ effect: 'allow' });
  });

  it('applies a rule only when all its argument matchers hold', () => {
    const small = makeRule({ match: [{ kind: 'at_most', pointer: '/amount', value: 100 }, { kind: 'equals', pointer: '/to', value: 'alice' }] });
    expect(verdict([small])).toMatchObject({ effect: 'allow' });
    expect(verdict([small], call({ args: { amount: 500, to: 'alice' } }))).toMatchObject({ effect: 'none' });
    expect(verdict([small], call({ args: { amount: 50, to: 'mallory' } }))).toMatchObject({ effect: 'none' });
    expect(verdict([small], call({ args: { to: 'alice' } }))).toMatchObject({ effect: 'none' });
  });

  it('“Ask for everything” suspends every allow rule; deny and ask rules still apply', () => {
    expect(verdict([allow], call(), true)).toEqual({ effect: 'none', stale: [], dryRuns: [] });
    expect(verdict([allow, ask], call(), true)).toMatchObject({ effect: 'ask' });
    expect(verdict([allow, deny], call(), true)).toMatchObject({ effect: 'deny' });
  });
});

describe('evaluateRules: many rules', () => {
  it('finds the one rule that applies among many, by origin and by glob, and names the earliest of an effect', () => {
    const rules: ApprovalRule[] = [];
    for (let i = 0; i < 300; i++) {
      rules.push(makeRule({ id: `site-${i}`, tool: 'http_request', match: [{ kind: 'url', pointer: '/url', origin: `https://api${i}.example.com`, pathPrefix: '/v1/' }] }));
      rules.push(makeRule({ id: `tool-${i}`, tool: `tool_${i}`, match: [{ kind: 'at_most', pointer: '/amount', value: i }] }));
      rules.push(makeRule({ id: `glob-${i}`, tool: `mcp_${i}_*`, effect: i % 2 === 0 ? 'allow' : 'deny' }));
    }
    rules.push(makeRule({ id: 'site-7-again', tool: 'http_request', match: [{ kind: 'url', pointer: '/url', origin: 'https://api7.example.com' }] }));
    rules.push(makeRule({ id: 'site-7-deny', effect: 'deny', tool: 'http_request', match: [{ kind: 'url', pointer: '/url', origin: 'https://api7.example.com', pathPrefix: '/v1/admin' }] }));
    const http = (url: string) => call({ toolName: 'http_request', args: { method: 'GET', url } });

    expect(verdict(rules, http('https://api7.example.com/v1/items'))).toMatchObject({ effect: 'allow', rule: { id: 'site-7' } });
    expect(verdict(rules, http('https://api7.example.com/v2/items'))).toMatchObject({ effect: 'allow', rule: { id: 'site-7-again' } });
    expect(verdict(rules, http('https://api7.example.com/v1/admin/users'))).toMatchObject({ effect: 'deny', rule: { id: 'site-7-deny' } });
    expect(verdict(rules, http('https://api7.example.com.evil.test/v1/items'))).toEqual({ effect: 'none', stale: [], dryRuns: [] });
    expect(verdict(rules, http('https://api299.example.com/v1/x'))).toMatchObject({ effect: 'allow', rule: { id: 'site-299' } });
    expect(verdict(rules, call({ toolName: 'tool_42', args: { amount: 42 } }))).toMatchObject({ effect: 'allow', rule: { id: 'tool-42' } });
    expect(verdict(rules, call({ toolName: 'tool_42', args: { amount: 43 } }))).toEqual({ effect: 'none', stale: [], dryRuns: [] });
    expect(verdict(rules, call({ toolName: 'mcp_13_write' }))).toMatchObject({ effect: 'deny', rule: { id: 'glob-13' } });
    expect(verdict(rules, call({ toolName: 'mcp_12_read' }))).toMatchObject({ effect: 'allow', rule: { id: 'glob-12' } });
    expect(verdict(rules, call({ toolName: 'mcp_1' }))).toEqual({ effect: 'none', stale: [], dryRuns: [] });
  });
});

describe('evaluateRules: bound to the tool’s definition', () => {
  it('applies an allow rule made for this definition, or for none (a glob)', () => {
    expect(verdict([makeRule({ definitionHash: 'hash-now' })])).toMatchObject({ effect: 'allow' });
    expect(verdict([makeRule({ tool: 'trans*', definitionHash: null })])).toMatchObject({ effect: 'allow' });
  });

  it('does not apply an allow rule made for another definition, and reports it as stale', () => {
    const old = makeRule({ id: 'old', definitionHash: 'hash-before' });
    expect(verdict([old])).toEqual({ effect: 'none', stale: [old], dryRuns: [] });
    expect(verdict([old, makeRule({ id: 'fresh', definitionHash: 'hash-now' })])).toMatchObject({ effect: 'allow', rule: { id: 'fresh' } });
  });

  it('keeps applying deny and ask rules to a changed tool: refusing or asking is never the unsafe direction', () => {
    expect(verdict([{ ...deny, definitionHash: 'hash-before' }])).toMatchObject({ effect: 'deny' });
    expect(verdict([{ ...ask, definitionHash: 'hash-before' }])).toMatchObject({ effect: 'ask' });
  });

  it('reports only rules that would otherwise have applied as stale', () => {
    const otherTool = makeRule({ id: 'other', tool: 'save_note', definitionHash: 'hash-before' });
    const disabled = makeRule({ id: 'off', enabled: false, definitionHash: 'hash-before' });
    expect(verdict([otherTool, disabled])).toEqual({ effect: 'none', stale: [], dryRuns: [] });
  });
});

describe('evaluateRules: dry runs', () => {
  const dry = (overrides: Partial<ApprovalRule>) => makeRule({ dryRun: true, ...overrides });

  it('treats a dry-run rule as absent for the verdict, and lists it as one that would have decided', () => {
    const wouldAllow = dry({ id: 'dry-allow' });
    expect(verdict([wouldAllow])).toEqual({ effect: 'none', stale: [], dryRuns: [wouldAllow] });
    const wouldDeny = dry({ id: 'dry-deny', effect: 'deny' });
    expect(verdict([allow, wouldDeny])).toEqual({ effect: 'allow', rule: allow, stale: [], dryRuns: [wouldDeny] });
  });

  it('keeps deny > ask > allow among the active rules, and lists a dry run only where it would have won', () => {
    const wouldAllow = dry({ id: 'dry-allow' });
    const wouldAsk = dry({ id: 'dry-ask', effect: 'ask' });
    // An active deny decides; neither dry run would have changed that.
    expect(verdict([wouldAllow, wouldAsk, deny])).toEqual({ effect: 'deny', rule: deny, stale: [], dryRuns: [] });
    // An active allow: the dry-run ask would have asked instead; the dry-run allow made later would not have been the one named.
    expect(verdict([allow, wouldAllow, wouldAsk])).toEqual({ effect: 'allow', rule: allow, stale: [], dryRuns: [wouldAsk] });
    // Made before the active allow, the dry-run allow would have been the one that decided.
    expect(verdict([wouldAllow, allow])).toEqual({ effect: 'allow', rule: allow, stale: [], dryRuns: [wouldAllow] });
  });

  it('judges a dry-run rule by what would make it apply: scope, matchers, expiry, definition, Ask for everything, Disable', () => {
    expect(verdict([dry({ scope: { kind: 'conversation', conversationId: 'c2' } })]).dryRuns).toEqual([]);
    expect(verdict([dry({ match: [{ kind: 'equals', pointer: '/to', value: 'bob' }] })]).dryRuns).toEqual([]);
    expect(verdict([dry({ expiresAt: NOW })]).dryRuns).toEqual([]);
    expect(verdict([dry({ definitionHash: 'hash-then' })]).dryRuns).toEqual([]);
    expect(verdict([dry({})], call(), true).dryRuns).toEqual([]);
    expect(verdict([dry({ enabled: false })]).dryRuns).toEqual([]);
    const byGlob = dry({ id: 'glob', tool: 'trans*', definitionHash: null, effect: 'deny' });
    expect(verdict([byGlob]).dryRuns).toEqual([byGlob]);
  });
});

describe('evaluateRules: point 6, arguments a rule cannot read', () => {
  const mcp = (url: string, path = '/safe/notes.txt') => call({ toolName: 'mcp_fetch', args: { url, path } });
  const onAllowed = { kind: 'url' as const, pointer: '/url', origin: 'https://allowed.example' };
  const allowSite = makeRule({ id: 'allow-site', tool: 'mcp_fetch', match: [onAllowed] });
  const denyEvil = makeRule({ id: 'deny-evil', tool: 'mcp_fetch', effect: 'deny', match: [{ kind: 'url', pointer: '/url', origin: 'https://evil.example' }] });
  const allowSafe = makeRule({ id: 'allow-safe', tool: 'mcp_fetch', match: [{ kind: 'glob', pointer: '/path', pattern: '/safe/*' }] });

  it('asks, rather than allows, a URL the browser reads as the allowed host and another parser as another', () => {
    expect(verdict([allowSite], mcp('https://allowed.example/x'))).toMatchObject({ effect: 'allow', rule: { id: 'allow-site' } });
    expect(verdict([allowSite], mcp('https://allowed.example\\@evil.example/'))).toEqual({ effect: 'ask', rule: allowSite, stale: [], unclear: true, dryRuns: [] });
  });

  it('asks, rather than lets by, a URL a deny rule cannot read: it may be the denied host', () => {
    // The index buckets rules by origin: an unclear URL is looked up in every bucket of its pointer.
    const rules = [allowSite, denyEvil, makeRule({ id: 'other', tool: 'mcp_fetch', match: [{ kind: 'url', pointer: '/url', origin: 'https://other.example' }] })];
    expect(verdict(rules, mcp('https://evil.example\\@allowed.example/'))).toMatchObject({ effect: 'ask', rule: { id: 'deny-evil' }, unclear: true });
    expect(verdict(rules, mcp('https://evil.example/'))).toMatchObject({ effect: 'deny', rule: { id: 'deny-evil' } });
    // A tool-wide allow does not outweigh a deny rule that may apply.
    expect(verdict([makeRule({ id: 'all', tool: 'mcp_fetch' }), denyEvil], mcp('https://EVIL.example/'))).toMatchObject({ effect: 'ask', rule: { id: 'deny-evil' }, unclear: true });
  });

  it('asks for a path with dot segments under a path glob, and keeps a sure deny or allow where one applies', () => {
    expect(verdict([allowSafe], mcp('https://allowed.example/', '/safe/notes.txt'))).toMatchObject({ effect: 'allow', rule: { id: 'allow-safe' } });
    expect(verdict([allowSafe], mcp('https://allowed.example/', '/safe/../secrets'))).toMatchObject({ effect: 'ask', rule: { id: 'allow-safe' }, unclear: true });
    expect(verdict([allowSafe, makeRule({ id: 'all', tool: 'mcp_fetch' })], mcp('https://allowed.example/', '/safe/../secrets'))).toMatchObject({ effect: 'allow', rule: { id: 'all' } });
    expect(verdict([allowSafe, denyEvil], mcp('https://evil.example/', '/safe/../secrets'))).toMatchObject({ effect: 'deny', rule: { id: 'deny-evil' } });
    // “Ask for everything” suspends unclear allow rules too: the gate decides, and it asks anyway.
    expect(verdict([allowSafe], mcp('https://allowed.example/', '/safe/../secrets'), true)).toEqual({ effect: 'none', stale: [], dryRuns: [] });
  });
});

describe('evaluateRules: dry runs beside arguments a rule cannot read and tools changed since', () => {
  const mcp = (url: string) => call({ toolName: 'mcp_fetch', args: { url } });
  const onUrl = (origin: string) => [{ kind: 'url' as const, pointer: '/url', origin }];
  const unclearUrl = 'https://allowed.example\\@evil.example/';

  it('lists no dry run that cannot read the call\'s URL: made active, it would only have made the call ask', () => {
    const dryDeny = makeRule({ id: 'dry-deny', tool: 'mcp_fetch', effect: 'deny', dryRun: true, match: onUrl('https://evil.example') });
    expect(verdict([dryDeny], mcp(unclearUrl))).toEqual({ effect: 'none', stale: [], dryRuns: [] });
    expect(verdict([dryDeny], mcp('https://evil.example/'))).toEqual({ effect: 'none', stale: [], dryRuns: [dryDeny] });
  });

  it('judges a sure dry run against an unclear decider: deny and ask beat it, an allow only beats an unclear allow', () => {
    const unclearAllow = makeRule({ id: 'unclear-allow', tool: 'mcp_fetch', match: onUrl('https://allowed.example') });
    const unclearDeny = makeRule({ id: 'unclear-deny', tool: 'mcp_fetch', effect: 'deny', match: onUrl('https://allowed.example') });
    const dryAllowAll = makeRule({ id: 'dry-allow-all', tool: 'mcp_fetch', dryRun: true });
    const dryAskAll = makeRule({ id: 'dry-ask-all', tool: 'mcp_fetch', effect: 'ask', dryRun: true });
    expect(verdict([unclearAllow, dryAllowAll, dryAskAll], mcp(unclearUrl))).toEqual({
      effect: 'ask', rule: unclearAllow, stale: [], unclear: true, dryRuns: [dryAllowAll, dryAskAll],
    });
    expect(verdict([unclearDeny, dryAllowAll, dryAskAll], mcp(unclearUrl))).toEqual({ effect: 'ask', rule: unclearDeny, stale: [], unclear: true, dryRuns: [dryAskAll] });
  });

  it('lists no dry-run allow over a glob of names for a tool changed since, as an active one would not apply', () => {
    const dryGlob = makeRule({ id: 'dry-glob', tool: 'trans*', definitionHash: null, dryRun: true });
    expect(verdict([dryGlob], call({ definitionChanged: true })).dryRuns).toEqual([]);
    expect(verdict([dryGlob]).dryRuns).toEqual([dryGlob]);
  });
});

describe('evaluateRules: point 12, trailing dots', () => {
  it('applies a deny rule on a host to that host written with a trailing dot, on both paths', () => {
    const deny = makeRule({ id: 'deny-evil', tool: 'http_request', effect: 'deny', match: [{ kind: 'url', pointer: '/url', origin: 'https://evil.example' }] });
    const dotted = makeRule({ id: 'allow-dotted', tool: 'http_request', match: [{ kind: 'url', pointer: '/url', origin: 'https://allowed.example.' }] });
    const http = (url: string) => call({ toolName: 'http_request', args: { method: 'GET', url } });
    expect(verdict([deny, dotted], http('https://evil.example./steal?d=1'))).toMatchObject({ effect: 'deny', rule: { id: 'deny-evil' } });
    expect(verdict([deny, dotted], http('https://allowed.example/x'))).toMatchObject({ effect: 'allow', rule: { id: 'allow-dotted' } });
  });
});
