import type { StoredCall } from '../../src/engine/preview-rule.ts';
import { mixedCalls, NOW } from './mixed-rules.ts';

export const STORED_CALLS = 10_000;

/**
 * The stored calls a preview reads: the bench's mix of calls, made distinct
 * (each its own URL, amount or path) and spread over the last weeks, newest
 * first, as readRecentCalls hands them out — structured clones, as read from
 * IndexedDB.
 */
export function storedCalls(count = STORED_CALLS): StoredCall[] {
  const mix = mixedCalls();
  const calls: StoredCall[] = [];
  for (let i = 0; i < count; i++) {
    const call = mix[i % mix.length]!;
    const args = structuredClone(call.args) as Record<string, unknown>;
    if (typeof args.url === 'string') args.url = `${args.url}${args.url.includes('?') ? '&' : '?'}n=${i}`;
    if (typeof args.amount === 'number') args.amount += i % 100;
    calls.push({ at: NOW - i * 60_000, conversationId: `conv-${i % 40}`, toolCallId: `call-${i}`, toolName: call.toolName, args });
  }
  return calls;
}
