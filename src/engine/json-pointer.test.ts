import { describe, expect, it } from 'vitest';
import { isValidPointer, pointerTokens, resolvePointer } from './json-pointer.ts';

const doc = { url: 'https://x.test', recipients: ['ada', 'bob'], 'a/b': 1, 'm~n': 2, nested: { deep: { value: 0 } }, empty: '', nothing: null };

describe('resolvePointer (RFC 6901)', () => {
  it('follows keys and array indexes', () => {
    expect(resolvePointer(doc, '')).toBe(doc);
    expect(resolvePointer(doc, '/url')).toBe('https://x.test');
    expect(resolvePointer(doc, '/recipients/1')).toBe('bob');
    expect(resolvePointer(doc, '/nested/deep/value')).toBe(0);
    expect(resolvePointer(doc, '/empty')).toBe('');
    expect(resolvePointer(doc, '/nothing')).toBeNull();
  });

  it('unescapes ~1 as / and ~0 as ~', () => {
    expect(resolvePointer(doc, '/a~1b')).toBe(1);
    expect(resolvePointer(doc, '/m~0n')).toBe(2);
    expect(resolvePointer({ '~1': 'tilde-one' }, '/~01')).toBe('tilde-one');
  });

  it('points at nothing for missing keys, out-of-range or malformed indexes, and malformed pointers', () => {
    expect(resolvePointer(doc, '/missing')).toBeUndefined();
    expect(resolvePointer(doc, '/recipients/2')).toBeUndefined();
    expect(resolvePointer(doc, '/recipients/-')).toBeUndefined();
    expect(resolvePointer(doc, '/recipients/01')).toBeUndefined();
    expect(resolvePointer(doc, '/recipients/1e0')).toBeUndefined();
    expect(resolvePointer(doc, '/recipients/length')).toBeUndefined();
    expect(resolvePointer(doc, '/url/0')).toBeUndefined();
    expect(resolvePointer(doc, 'url')).toBeUndefined();
    expect(resolvePointer(doc, '/m~2n')).toBeUndefined();
  });

  it('follows own properties only: the prototype chain is not part of the arguments', () => {
    expect(resolvePointer(doc, '/constructor')).toBeUndefined();
    expect(resolvePointer(doc, '/__proto__')).toBeUndefined();
    expect(resolvePointer(doc, '/toString')).toBeUndefined();
    expect(resolvePointer(doc, '/nested/hasOwnProperty')).toBeUndefined();
    // A key the arguments really have is data like any other, even this one.
    const parsed: unknown = JSON.parse('{"__proto__": {"admin": true}}');
    expect(resolvePointer(parsed, '/__proto__/admin')).toBe(true);
  });

  it('checks and splits pointers', () => {
    expect(isValidPointer('')).toBe(true);
    expect(isValidPointer('/a/b~1c')).toBe(true);
    expect(isValidPointer('a')).toBe(false);
    expect(isValidPointer('/a~')).toBe(false);
    expect(pointerTokens('/recipients/0')).toEqual(['recipients', '0']);
    expect(pointerTokens('/a~1b')).toEqual(['a/b']);
    expect(pointerTokens('x')).toBeUndefined();
  });
});
