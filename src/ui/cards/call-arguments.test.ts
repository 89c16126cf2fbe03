import { describe, expect, it } from 'vitest';
import { argumentsThatMatter } from './call-arguments.ts';

describe('argumentsThatMatter', () => {
  it('an HTTP request: its method and URL, and the names of the rest', () => {
    expect(argumentsThatMatter({ toolName: 'http_request', payload: { method: 'POST', url: 'https://x.example/a', body: '{"amount":120}', headers: {} } })).toEqual([
      { name: 'method', value: 'POST' },
      { name: 'url', value: 'https://x.example/a' },
      { name: 'also', value: 'body, headers' },
    ]);
  });

  it('another call: its first four members as one-line JSON, cut when long', () => {
    const lines = argumentsThatMatter({ toolName: 'send', payload: { to: 'ada@example.com', amount: 120, tags: ['a', 'b'], note: 'x\n y', text: 'z'.repeat(300) } });
    expect(lines.slice(0, 4)).toEqual([
      { name: 'to', value: 'ada@example.com' },
      { name: 'amount', value: '120' },
      { name: 'tags', value: '["a","b"]' },
      { name: 'note', value: 'x y' },
    ]);
    expect(lines[4]).toEqual({ name: 'also', value: 'text' });
    expect(argumentsThatMatter({ toolName: 'send', payload: { text: 'z'.repeat(300) } })[0]!.value).toHaveLength(120);
  });

  it('no payload, nothing; a payload that is not an object, as one value', () => {
    expect(argumentsThatMatter({ toolName: 'wait_for_approval', payload: null })).toEqual([]);
    expect(argumentsThatMatter({ toolName: 'wait_for_approval', payload: [1, 2] })).toEqual([{ name: 'payload', value: '[1,2]' }]);
  });
});
