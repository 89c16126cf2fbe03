import { describe, expect, it } from 'vitest';
import { Intent } from '../worker/protocol.ts';
import { ViewToolCall, ViewToolCallAnswer } from './view-tool-call.ts';

describe('a view’s tool call on the wire', () => {
  const call = { conversationId: 'c1', viewCallId: 'call-1', serverId: 's1', name: 'get_time', arguments: { zone: 'UTC' } };

  it('is an intent the worker reads', () => {
    expect(Intent.parse({ type: 'callToolFromView', ...call })).toEqual({ type: 'callToolFromView', ...call });
    expect(ViewToolCall.safeParse({ ...call, arguments: [] }).success).toBe(false);
    expect(ViewToolCall.safeParse({ ...call, name: '' }).success).toBe(false);
  });

  it('answers with the result as the server gave it, a decline or a refusal', () => {
    const result = { content: [{ type: 'text', text: '12:00' }], structuredContent: { time: '12:00' }, _meta: { x: 1 } };
    expect(ViewToolCallAnswer.parse({ outcome: 'ran', result })).toEqual({ outcome: 'ran', result });
    expect(ViewToolCallAnswer.parse({ outcome: 'declined', reason: 'no' })).toEqual({ outcome: 'declined', reason: 'no' });
    expect(ViewToolCallAnswer.parse({ outcome: 'refused', reason: 'model-only' })).toEqual({ outcome: 'refused', reason: 'model-only' });
    expect(ViewToolCallAnswer.safeParse({ outcome: 'ran', result: { content: 'text' } }).success).toBe(false);
    expect(ViewToolCallAnswer.safeParse({ outcome: 'ran' }).success).toBe(false);
  });
});
