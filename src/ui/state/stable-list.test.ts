import { describe, expect, test } from 'vitest';
import type { Message } from '../../engine/records/index.ts';
import { sameMessage } from './same-message.ts';
import { StableList } from './stable-list.ts';

const base = { v: 1 as const, conversationId: 'c', createdAt: 1 };
const user = (id: string, seq: number, content: string): Message => ({ ...base, id, seq, role: 'user', content });
const assistant = (id: string, seq: number, content: string, status: 'streaming' | 'complete'): Message => ({
  ...base,
  id,
  seq,
  role: 'assistant',
  content,
  toolCalls: [],
  turnIndex: 0,
  status,
});

describe('StableList', () => {
  test('keeps the objects of unchanged rows and replaces changed ones', () => {
    const list = new StableList(sameMessage);
    const first = list.reconcile([user('u1', 0, 'hi'), assistant('a1', 1, 'Hel', 'streaming')]);
    const second = list.reconcile([user('u1', 0, 'hi'), assistant('a1', 1, 'Hello', 'streaming')]);
    expect(second[0]).toBe(first[0]);
    expect(second[1]).not.toBe(first[1]);
    expect(second[1]).toMatchObject({ content: 'Hello' });
  });

  test('returns the previous array when nothing changed', () => {
    const list = new StableList(sameMessage);
    const first = list.reconcile([user('u1', 0, 'hi')]);
    expect(list.reconcile([user('u1', 0, 'hi')])).toBe(first);
  });

  test('notices status changes, additions and removals', () => {
    const list = new StableList(sameMessage);
    const first = list.reconcile([assistant('a1', 0, 'done', 'streaming')]);
    const second = list.reconcile([assistant('a1', 0, 'done', 'complete')]);
    expect(second).not.toBe(first);
    const third = list.reconcile([...second, user('u2', 1, 'next')]);
    expect(third).toHaveLength(2);
    expect(third[0]).toBe(second[0]);
    expect(list.reconcile([third[1]!])).toEqual([third[1]]);
  });
});
