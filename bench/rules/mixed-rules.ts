import type { RuleCall } from '../../src/engine/evaluate-rules.ts';
import type { RuleSet } from '../../src/engine/rules-port.ts';
import type { ApprovalRule, ArgumentMatcher } from '../../src/engine/records/index.ts';

export const RULE_COUNT = 1_000;
export const NOW = Date.UTC(2026, 11, 1);
const HASH = 'a'.repeat(64);
const CONVERSATION = 'conv-measured';

/**
 * A thousand rules as a heavy user might have them after months of "Always
 * allow": most for http_request (one per origin, many with path prefixes,
 * which is what every GET to a new site adds), exact-name rules with argument
 * matchers for other tools, globs over MCP tool names, conversation rules of
 * many conversations, and some disabled, expired and stale ones. Nothing is
 * sorted to suit the evaluator.
 */
export function mixedRules(): RuleSet {
  const rules: ApprovalRule[] = [];
  const rule = (i: number, over: Partial<ApprovalRule>): ApprovalRule => ({
    v: 1,
    id: `rule-${i}`,
    effect: 'allow',
    tool: 'http_request',
    match: [],
    scope: { kind: 'everywhere' },
    source: 'card',
    createdAt: NOW - 86_400_000,
    lastUsedAt: null,
    expiresAt: null,
    definitionHash: HASH,
    enabled: true,
    ...over,
  });
  const url = (i: number, prefix?: string): ArgumentMatcher[] => [
    { kind: 'one_of', pointer: '/method', values: ['GET', 'HEAD'] },
    { kind: 'url', pointer: '/url', origin: `https://api${i}.example.com`, ...(prefix ? { pathPrefix: prefix } : {}) },
  ];
  for (let i = 0; rules.length < RULE_COUNT; i++) {
    switch (i % 10) {
      case 0:
      case 1:
      case 2:
      case 3:
        rules.push(rule(i, { match: url(i, i % 3 === 0 ? `/v${i % 4}/` : undefined) }));
        break;
      case 4:
        rules.push(rule(i, { tool: `tool_${i}`, match: [{ kind: 'at_most', pointer: '/amount', value: i }, { kind: 'equals', pointer: '/to', value: `payee-${i}` }] }));
        break;
      case 5:
        rules.push(rule(i, { tool: `mcp_server${i}_*`, definitionHash: null, effect: i % 20 === 5 ? 'ask' : 'allow' }));
        break;
      case 6:
        rules.push(rule(i, { scope: { kind: 'conversation', conversationId: i % 60 === 6 ? CONVERSATION : `conv-${i}` }, match: url(i) }));
        break;
      case 7:
        rules.push(rule(i, { effect: 'deny', tool: `tool_${i - 3}`, reason: 'Not this one.', match: [{ kind: 'glob', pointer: '/to', pattern: '*@evil.test' }] }));
        break;
      case 8:
        rules.push(rule(i, { enabled: i % 20 === 8, expiresAt: i % 20 === 8 ? NOW - 1 : null, match: url(i) }));
        break;
      case 9:
        rules.push(rule(i, { definitionHash: 'b'.repeat(64), match: url(i, '/') }));
        break;
    }
  }
  return { rules, askForEverything: false };
}

/** The calls each round evaluates: hits early and late in the list, misses that scan it all, and a deny. */
export function mixedCalls(): RuleCall[] {
  const http = (origin: string, path = '/v0/items?page=2', method = 'GET'): RuleCall => ({
    toolName: 'http_request',
    args: { method, url: `${origin}${path}`, headers: { accept: 'application/json' } },
    conversationId: CONVERSATION,
    definitionHash: HASH,
  });
  return [
    http('https://api1.example.com'),
    http('https://api990.example.com', '/v2/report'),
    http('https://api3.example.com', '/v3/../admin'),
    http('https://unknown.example.net'),
    http('https://api6.example.com'),
    http('https://api1.example.com', '/x', 'POST'),
    { toolName: 'tool_504', args: { amount: 12, to: 'payee-504' }, conversationId: CONVERSATION, definitionHash: HASH },
    { toolName: 'tool_4', args: { amount: 1, to: 'someone@evil.test' }, conversationId: CONVERSATION, definitionHash: HASH },
    { toolName: 'mcp_server995_read', args: { path: '/tmp/x' }, conversationId: CONVERSATION, definitionHash: HASH },
    { toolName: 'save_note', args: { title: 'Groceries', text: 'Milk' }, conversationId: CONVERSATION, definitionHash: HASH },
  ];
}
