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

describe('version intents', () => {
  it('reads Edit, Regenerate and a switch of version', () => {
    expect(Intent.parse({ type: 'editMessage', conversationId: 'c1', messageId: 'm1', text: ' new words ' })).toEqual({
      type: 'editMessage',
      conversationId: 'c1',
      messageId: 'm1',
      text: 'new words',
    });
    // An edit that keeps some of the message's files (issue 32, point 4: a refused image removed), with or without words.
    expect(Intent.parse({ type: 'editMessage', conversationId: 'c1', messageId: 'm1', text: '', keep: ['f2'] })).toMatchObject({ text: '', keep: ['f2'] });
    expect(Intent.safeParse({ type: 'editMessage', conversationId: 'c1', messageId: 'm1', text: ' ', keep: [] }).success).toBe(false);
    expect(Intent.parse({ type: 'regenerate', conversationId: 'c1' })).toEqual({ type: 'regenerate', conversationId: 'c1' });
    expect(Intent.parse({ type: 'switchVersion', conversationId: 'c1', branchId: '' })).toEqual({ type: 'switchVersion', conversationId: 'c1', branchId: '' });
  });

  it('refuses an edit without words or ids, and a branch id that is not a string', () => {
    for (const bad of [
      { type: 'editMessage', conversationId: 'c1', messageId: 'm1', text: '   ' },
      { type: 'editMessage', conversationId: 'c1', text: 'x' },
      { type: 'editMessage', conversationId: 'c1', messageId: 'm1', text: 'x'.repeat(100_001) },
      { type: 'regenerate' },
      { type: 'switchVersion', conversationId: 'c1', branchId: 3 },
      { type: 'switchVersion', conversationId: 'c1' },
    ]) {
      expect(Intent.safeParse(bad).success).toBe(false);
    }
  });
});

describe('send with attachments', () => {
  const ref = { id: 'f1', name: 'dot.png', type: 'image/png', size: 70, sha256: 'a'.repeat(64), kind: 'image' };

  it('reads a message of text, of files, or both', () => {
    expect(Intent.parse({ type: 'send', conversationId: null, text: 'hi' })).toEqual({ type: 'send', conversationId: null, text: 'hi' });
    expect(Intent.parse({ type: 'send', conversationId: 'c1', text: '', attachments: [ref] })).toEqual({ type: 'send', conversationId: 'c1', text: '', attachments: [ref] });
  });

  it('refuses a message with neither, more files than a message takes, or a ref that is not one', () => {
    const send = (fields: Record<string, unknown>) => Intent.safeParse({ type: 'send', conversationId: null, text: '', ...fields }).success;
    expect(send({})).toBe(false);
    expect(send({ attachments: [] })).toBe(false);
    expect(send({ attachments: Array.from({ length: 11 }, (_, i) => ({ ...ref, id: `f${i}` })) })).toBe(false);
    expect(send({ attachments: [{ ...ref, sha256: 'XYZ' }] })).toBe(false);
    expect(send({ attachments: [{ ...ref, size: 8_000_001 }] })).toBe(false);
    expect(send({ attachments: [{ ...ref, kind: 'video' }] })).toBe(false);
  });
});

describe('decision intents: bound to the view the person was shown (issue 32)', () => {
  const hash = 'a'.repeat(64);
  const draft = { effect: 'allow', tool: 'http_request', match: [], scope: { kind: 'everywhere' }, source: 'card' };

  it('reads a decision, a batch and an approval with a rule that carry their view hashes', () => {
    expect(Intent.parse({ type: 'decide', pausePointId: 'p1', decision: { type: 'approve', viewHash: hash } })).toEqual({
      type: 'decide',
      pausePointId: 'p1',
      decision: { type: 'approve', viewHash: hash },
    });
    expect(Intent.safeParse({ type: 'decideBatch', pausePointIds: ['p1', 'p2'], decision: { type: 'approve' }, viewHashes: [hash, hash] }).success).toBe(true);
    expect(Intent.safeParse({ type: 'approveWithRule', pausePointId: 'p1', decision: { type: 'approve', viewHash: hash }, draft }).success).toBe(true);
  });

  it('refuses a decision without the hash of its view, or with one that is not a SHA-256', () => {
    for (const decision of [{ type: 'approve' }, { type: 'decline', reason: 'no' }, { type: 'choose', option: 'A' }, { type: 'approve', viewHash: 'abc' }]) {
      expect(Intent.safeParse({ type: 'decide', pausePointId: 'p1', decision }).success).toBe(false);
      expect(Intent.safeParse({ type: 'approveWithRule', pausePointId: 'p1', decision, draft }).success).toBe(false);
    }
  });

  it('refuses a batch without a view hash for each of its cards', () => {
    for (const viewHashes of [undefined, [], [hash]]) {
      expect(Intent.safeParse({ type: 'decideBatch', pausePointIds: ['p1', 'p2'], decision: { type: 'approve' }, viewHashes }).success).toBe(false);
    }
  });
});
