import type { Message } from '../records/index.ts';

/**
 * The last answer of a path: the messages after its last message of the
 * person's own (a decision's message is the app's, not theirs). Empty when
 * nothing follows it, or there is none.
 */
export function lastAnswer<M extends Message>(path: readonly M[]): M[] {
  for (let i = path.length - 1; i >= 0; i--) {
    const m = path[i];
    if (m?.role === 'user' && !m.decision) return path.slice(i + 1);
  }
  return [];
}
