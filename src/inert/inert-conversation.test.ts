import { describe, expect, it } from 'vitest';
import type { ApprovalRule, ConversationState, Message, PausePoint } from '../engine/records/index.ts';
import { makeConversation, makePausePoint } from '../engine/testing/make-records.ts';
import { INTERRUPTED_FROM_FILE, inertConversation, NOT_RUN_FROM_FILE, type ForeignConversation } from './inert-conversation.ts';
import { inertRule } from './inert-rule.ts';
import type { FromFile } from './provenance.ts';

const AT = 10_000;
const ids = () => {
  let n = 0;
  return () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
};
const from = (source: FromFile['source'], conversationId = 'c1'): FromFile => ({ source, at: AT, conversationId, uuid: ids() });
const foreign = (overrides: Partial<ForeignConversation> = {}): ForeignConversation => ({ conversation: makeConversation({ id: 'c1' }), messages: [], pausePoints: [], ...overrides });

const user = (seq: number, extra: Partial<Message> = {}): Message => ({ v: 1, id: `m${seq}`, conversationId: 'c1', seq, createdAt: 1_000 + seq, role: 'user', content: `u${seq}`, ...extra }) as Message;
const answer = (seq: number, calls: string[], turnIndex = 0, extra: Partial<Message> = {}): Message =>
  ({ v: 1, id: `m${seq}`, conversationId: 'c1', seq, createdAt: 1_000 + seq, role: 'assistant', content: '', toolCalls: calls.map((id) => ({ id, name: 'act', arguments: '{}' })), turnIndex, status: 'complete', ...extra }) as Message;
const result = (seq: number, toolCallId: string): Message => ({ v: 1, id: `m${seq}`, conversationId: 'c1', seq, createdAt: 1_000 + seq, role: 'tool', toolCallId, toolName: 'act', content: 'done', outcome: 'done' });

describe.each(['backup', 'import'] as const)('inertConversation from a %s: conversation states', (source) => {
  const stateOf = (state: ConversationState) => inertConversation(foreign({ conversation: makeConversation({ id: 'c1', state }) }), from(source)).conversation.state;
  const INTERRUPTED: ConversationState = { kind: 'error', code: 'interrupted', message: INTERRUPTED_FROM_FILE[source], retryable: true };

  it.each<ConversationState>([
    { kind: 'running', owner: 'tab-elsewhere', since: 1 },
    { kind: 'retrying', owner: 'tab-elsewhere', attempt: 2, retryAt: 9, reason: 'rate limited' },
    { kind: 'waiting_for_network', owner: 'tab-elsewhere', since: 1 },
    { kind: 'paused', pending: 1 },
  ])('a conversation that was $kind comes back interrupted, waiting for Continue', (state) => {
    expect(stateOf(state)).toEqual(INTERRUPTED);
  });

  it('idle and error states are kept', () => {
    expect(stateOf({ kind: 'idle' })).toEqual({ kind: 'idle' });
    const failed: ConversationState = { kind: 'error', code: 'auth', message: 'Bad key.', retryable: false };
    expect(stateOf(failed)).toEqual(failed);
  });

  it('comes back without the device it ran on, with its instructions off and no sampling list the limits would count', () => {
    const conversation = makeConversation({ id: 'c1', ownerDevice: { id: 'laptop', name: 'Laptop' }, instructions: 'Be brief.', sampled: [{ at: 1, usage: { model: 'm', prompt: 1, completion: 1, cached: 0, reasoning: 0 } }] });
    const out = inertConversation(foreign({ conversation }), from(source)).conversation;
    expect(out).not.toHaveProperty('ownerDevice');
    expect(out).not.toHaveProperty('sampled');
    expect(out).toMatchObject({ instructions: 'Be brief.', instructionsOff: true });
  });

  it('every card is restored and loses its expiry; a pending one comes in expired', () => {
    const decided = makePausePoint({ id: 'd', status: 'resolved', resolution: 'approve', resolvedAt: 2 });
    const waiting = makePausePoint({ id: 'w', expiresAt: 60_000 });
    const out = inertConversation(foreign({ pausePoints: [decided, waiting] }), from(source)).pausePoints;
    expect(out.map((p) => [p.status, p.restored, p.expiresAt, p.expiredReason])).toEqual([
      ['resolved', true, null, undefined],
      ['expired', true, null, 'abandoned'],
    ]);
  });

  it('closes every open call right after its answer, on its branch, and moves the fork points with the messages', () => {
    const versions = { current: 'b1', rootActive: 1, branches: [{ id: 'b1', parent: '', from: 2, active: 2, createdAt: 50_000 }] };
    const out = inertConversation(
      foreign({ conversation: makeConversation({ id: 'c1', versions, nextSeq: 4 }), messages: [user(0), answer(1, ['call_a', 'call_b']), result(3, 'call_b'), user(2, { branch: 'b1' })] }),
      from(source),
    );
    expect(out.messages.map((m) => [m.seq, m.role, m.role === 'tool' ? m.content === NOT_RUN_FROM_FILE : null, m.branch])).toEqual([
      [0, 'user', null, undefined],
      [1, 'assistant', null, undefined],
      [2, 'tool', true, undefined],
      [3, 'user', null, 'b1'],
      [4, 'tool', false, undefined],
    ]);
    const [, call] = out.messages;
    const callA = call?.role === 'assistant' ? call.toolCalls[0]!.id : '';
    expect(out.messages[2]).toMatchObject({ toolCallId: callA, outcome: 'skipped' });
    expect(out.conversation.nextSeq).toBe(5);
    expect(out.conversation.versions?.branches[0]).toMatchObject({ from: 3, createdAt: AT });
  });

  it('links only what the file proves: a card to its own turn’s call, a result to the latest earlier call of its id', () => {
    const linked = makePausePoint({ id: 'p1', toolCallId: 'call_a', turnIndex: 0 });
    const otherTurn = makePausePoint({ id: 'p2', toolCallId: 'call_a', turnIndex: 5 });
    const orphan = makePausePoint({ id: 'p3', toolCallId: 'call_0', turnIndex: 0 });
    const out = inertConversation(foreign({ messages: [answer(0, ['call_a']), result(1, 'call_a'), result(2, 'call_0')], pausePoints: [linked, otherTurn, orphan] }), from(source));
    const [call, first, stray] = out.messages;
    const callA = call?.role === 'assistant' ? call.toolCalls[0]!.id : '';
    expect(first).toMatchObject({ toolCallId: callA });
    const named = new Set([callA]);
    expect(stray?.role === 'tool' && named.has(stray.toolCallId)).toBe(false);
    const [p1, p2, p3] = out.pausePoints as [PausePoint, PausePoint, PausePoint];
    expect(p1.toolCallId).toBe(callA);
    expect(p2.toolCallId).not.toBe(callA);
    expect(p3.toolCallId).not.toBe('call_0');
    expect(p3.toolCallId).toMatch(/^call_/);
  });

  it('clamps times to when it comes in, and keeps usage as history', () => {
    const out = inertConversation(
      foreign({
        conversation: makeConversation({ id: 'c1', createdAt: 99_999, updatedAt: 99_999 }),
        messages: [answer(0, [], 0, { createdAt: 99_999, usage: { model: 'm', prompt: 5, completion: 5, cached: 0, reasoning: 0 } } as Partial<Message>)],
        pausePoints: [makePausePoint({ createdAt: 99_999, resolvedAt: 99_999, status: 'resolved', resolution: 'decline' })],
      }),
      from(source),
    );
    expect(out.conversation).toMatchObject({ createdAt: AT, updatedAt: AT });
    expect(out.messages[0]).toMatchObject({ createdAt: AT, usage: { prompt: 5 }, fromFile: true });
    expect(out.pausePoints[0]).toMatchObject({ createdAt: AT, resolvedAt: AT });
  });
});

describe('inertConversation: ids', () => {
  const file = () => foreign({ messages: [user(0, { attachments: [{ id: 'att', name: 'a.txt', type: 'text/plain', size: 1, sha256: 'a'.repeat(64), kind: 'text' }] } as Partial<Message>), answer(1, ['call_a']), result(2, 'call_a')], pausePoints: [makePausePoint({ id: 'p1', toolCallId: 'call_a' })] });

  it('an import mints every id: message, card, call and attachment', () => {
    const out = inertConversation(file(), from('import', 'copy'));
    const ids = out.messages.flatMap((m) => [m.id, ...(m.role === 'assistant' ? m.toolCalls.map((c) => c.id) : []), ...(m.role === 'user' ? (m.attachments ?? []).map((a) => a.id) : [])]);
    for (const old of ['m0', 'm1', 'm2', 'call_a', 'att']) expect(ids).not.toContain(old);
    expect(out.pausePoints[0]!.id).not.toBe('p1');
    expect(out.attachmentIds.get('att')).not.toBe('att');
    expect(out.messages.every((m) => m.conversationId === 'copy')).toBe(true);
  });

  it('a restore keeps the ids its file proves (its caller refuses ids taken here)', () => {
    const out = inertConversation(file(), from('backup'));
    expect(out.messages.map((m) => m.id)).toEqual(['m0', 'm1', 'm2']);
    expect(out.pausePoints[0]).toMatchObject({ id: 'p1', toolCallId: 'call_a' });
    expect(out.attachmentIds.get('att')).toBe('att');
  });

  it('a repeated call id within one answer links to its first call; the second is answered as open', () => {
    const out = inertConversation(foreign({ messages: [answer(0, ['call_a', 'call_a']), result(1, 'call_a')] }), from('backup'));
    const [call, closing, answered] = out.messages;
    const [first, second] = call?.role === 'assistant' ? call.toolCalls : [];
    expect(first!.id).toBe('call_a');
    expect(second!.id).not.toBe('call_a');
    expect(closing).toMatchObject({ toolCallId: second!.id, content: NOT_RUN_FROM_FILE });
    expect(answered).toMatchObject({ toolCallId: 'call_a' });
  });
});

describe('inertRule', () => {
  const rule: ApprovalRule = { v: 1, id: 'r1', effect: 'allow', tool: 'http_request', match: [], scope: { kind: 'everywhere' }, source: 'card', createdAt: 99_999, lastUsedAt: 99_999, expiresAt: 99_999, definitionHash: null, enabled: true };

  it('switches allow rules off, keeps ask and deny rules on, marks them as from a backup, and clamps their times but not their expiry', () => {
    expect(inertRule(rule, AT)).toEqual({ ...rule, source: 'backup', enabled: false, createdAt: AT, lastUsedAt: AT });
    expect(inertRule({ ...rule, effect: 'deny', enabled: false }, AT)).toMatchObject({ enabled: true, expiresAt: 99_999 });
  });
});
