import { describe, expect, it } from 'vitest';
import { describeRule } from './describe-rule.ts';
import { makeRule } from './testing/make-records.ts';

describe('describeRule', () => {
  it('says what an http_request rule lets through', () => {
    const rule = makeRule({
      tool: 'http_request',
      match: [
        { kind: 'one_of', pointer: '/method', values: ['GET', 'HEAD'] },
        { kind: 'url', pointer: '/url', origin: 'https://api.example.com' },
      ],
    });
    expect(describeRule(rule)).toBe('Allow http_request when method is GET or HEAD and url is on https://api.example.com — everywhere');
  });

  it('names the scope, and the conversation when told how', () => {
    const rule = makeRule({ effect: 'deny', tool: 'delete_note', scope: { kind: 'conversation', conversationId: 'c1' } });
    expect(describeRule(rule)).toBe('Deny delete_note — in this conversation');
    expect(describeRule(rule, { conversation: 'in “Trip to Lyon”' })).toBe('Deny delete_note — in “Trip to Lyon”');
  });

  it('words every matcher, globs over names and the expiry', () => {
    const rule = makeRule({
      effect: 'ask',
      tool: 'mcp_files_*',
      match: [
        { kind: 'equals', pointer: '/options/recursive', value: true },
        { kind: 'glob', pointer: '/path', pattern: '/tmp/*' },
        { kind: 'at_most', pointer: '/size', value: 1000 },
        { kind: 'at_least', pointer: '/count', value: 1 },
        { kind: 'one_of', pointer: '/mode', values: ['r', 'w', 'a'] },
        { kind: 'url', pointer: '/source', origin: 'https://x.test', pathPrefix: '/files/' },
        { kind: 'equals', pointer: '', value: {} },
      ],
      expiresAt: 1_000,
    });
    expect(describeRule(rule, { formatTime: (at) => `t=${at}` })).toBe(
      'Ask before tools matching mcp_files_* when options.recursive is true and path matches /tmp/* and size is at most 1000 ' +
        'and count is at least 1 and mode is r, w or a and source is on https://x.test under /files/ and the arguments is {} — everywhere until t=1000',
    );
  });

  it('cuts long values', () => {
    const text = describeRule(makeRule({ match: [{ kind: 'equals', pointer: '/to', value: 'x'.repeat(500) }] }));
    expect(text.length).toBeLessThan(140);
    expect(text).toContain('…');
  });
});
