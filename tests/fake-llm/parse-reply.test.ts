import { describe, expect, it } from 'vitest';
import { parseReplies, parseReply } from './parse-reply.ts';

describe('parseReply', () => {
  it('accepts every reply shape', () => {
    const replies = [
      { content: 'hi', chunkSize: 3, chunkDelayMs: 5, usage: true, finishReason: 'length' },
      { toolCalls: [{ id: 'call_1', name: 'noop', arguments: { a: 1 } }, { name: 'raw', arguments: '{"b":' }] },
      { fault: 'status', status: 429, retryAfter: 2, message: 'slow down' },
      { fault: 'drop', content: 'cut', afterChunks: 1 },
      { fault: 'hang' },
      { fault: 'slow-headers', delayMs: 10, then: { fault: 'hang' } },
    ];
    expect(parseReplies(replies)).toMatchObject(replies);
    expect(parseReplies({ content: 'single' })).toMatchObject([{ content: 'single' }]);
  });

  it.each([
    [null, 'expected an object'],
    [{ fault: 'explode' }, 'unknown fault "explode"'],
    [{ fault: 'status', status: 42 }, 'reply.status'],
    [{ content: 7 }, 'reply.content: expected a string'],
    [{ chunkSize: 0 }, 'reply.chunkSize'],
    [{ toolCalls: [{ arguments: '{}' }] }, 'reply.toolCalls[0].name: required'],
    [{ toolCalls: [{ name: 'x', arguments: 5 }] }, 'reply.toolCalls[0].arguments'],
    [{ fault: 'slow-headers', delayMs: 5, then: { fault: 'nope' } }, 'reply.then.fault'],
  ])('refuses %j', (value, message) => {
    expect(() => parseReply(value)).toThrow(message);
  });

  it('names the position of a bad reply in an array', () => {
    expect(() => parseReplies([{ content: 'ok' }, { fault: 'hang', extra: 1 }, { content: 1 }])).toThrow('reply[2].content');
  });
});
