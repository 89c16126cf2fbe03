import { describe, expect, it } from 'vitest';
import type { ConversationState, Message } from '../../engine/records/index.ts';
import { awaitingAnswer } from './awaiting-answer.ts';

const running: ConversationState = { kind: 'running', owner: 'tab-A', since: 0 };
let seq = 0;
const base = () => ({ v: 1 as const, id: `m${seq}`, conversationId: 'c1', seq: seq++, createdAt: 0 });
const user = (content = 'hi'): Message => ({ ...base(), role: 'user', content });
const notice = (): Message => ({ ...base(), role: 'notice', content: 'The previous answer was interrupted.' });
const answer = (status: 'streaming' | 'complete' | 'interrupted', callIds: string[] = []): Message => ({
  ...base(),
  role: 'assistant',
  content: 'text',
  turnIndex: 0,
  status,
  toolCalls: callIds.map((id) => ({ id, name: 'save_note', arguments: '{}' })),
});
const result = (toolCallId: string): Message => ({ ...base(), role: 'tool', toolCallId, toolName: 'save_note', content: 'ok', outcome: 'done' });

describe('awaitingAnswer', () => {
  it('is true while running with the question (or a decision) last, and at the start of a conversation', () => {
    expect(awaitingAnswer([user()], running)).toBe(true);
    expect(awaitingAnswer([], running)).toBe(true);
    expect(awaitingAnswer([user(), answer('interrupted'), notice()], running)).toBe(true);
  });

  it('is false once the answer is streaming, and while its calls are still being settled', () => {
    expect(awaitingAnswer([user(), answer('streaming')], running)).toBe(false);
    expect(awaitingAnswer([user(), answer('complete', ['a', 'b']), result('a')], running)).toBe(false);
  });

  it('is true again when every call has its result and the model is asked again', () => {
    expect(awaitingAnswer([user(), answer('complete', ['a', 'b']), result('a'), result('b')], running)).toBe(true);
  });

  it('is false unless the conversation is running', () => {
    expect(awaitingAnswer([user()], { kind: 'idle' })).toBe(false);
    expect(awaitingAnswer([user()], { kind: 'retrying', owner: 'tab-A', attempt: 1, retryAt: 0, reason: 'busy' })).toBe(false);
    expect(awaitingAnswer([user()], undefined)).toBe(false);
    expect(awaitingAnswer([user(), answer('complete')], running)).toBe(false);
  });
});
