import { describe, expect, it } from 'vitest';
import { Intent } from './protocol.ts';

describe('rule intents', () => {
  const draft = {
    effect: 'allow',
    tool: 'http_request',
    match: [
      { kind: 'one_of', pointer: '/method', values: ['GET', 'HEAD'] },
      { kind: 'url', pointer: '/url', origin: 'https://docs.example' },
    ],
    scope: { kind: 'everywhere' },
    source: 'settings',
  };

  it('reads a rule draft, filling in its defaults', () => {
    expect(Intent.parse({ type: 'addRule', draft })).toEqual({ type: 'addRule', draft: { ...draft, expiresAt: null, enabled: true } });
  });

  it('refuses a draft that is not one', () => {
    for (const bad of [{ ...draft, effect: 'always' }, { ...draft, scope: { kind: 'conversation' } }, { ...draft, tool: '' }, { ...draft, match: [{ kind: 'url' }] }]) {
      expect(Intent.safeParse({ type: 'addRule', draft: bad }).success).toBe(false);
    }
  });

  it('reads remove, enable and the switch', () => {
    expect(Intent.parse({ type: 'removeRule', ruleId: 'r1' })).toEqual({ type: 'removeRule', ruleId: 'r1' });
    expect(Intent.parse({ type: 'enableRule', ruleId: 'r1' })).toEqual({ type: 'enableRule', ruleId: 'r1' });
    expect(Intent.parse({ type: 'disableRule', ruleId: 'r1' })).toEqual({ type: 'disableRule', ruleId: 'r1' });
    expect(Intent.parse({ type: 'setAskForEverything', on: true })).toEqual({ type: 'setAskForEverything', on: true });
    expect(Intent.safeParse({ type: 'setAskForEverything', on: 'yes' }).success).toBe(false);
    expect(Intent.safeParse({ type: 'removeRule' }).success).toBe(false);
  });
});
