import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson, writeCanonical } from './canonical-json.ts';
import { sha256Hex } from './sha256.ts';

describe('canonicalJson', () => {
  it('sorts members by key at every depth and writes no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}');
  });

  it('orders keys by UTF-16 code units, as RFC 8785 does', () => {
    // The key set of RFC 8785 §3.2.3's sorting example.
    const keys = ['\u20ac', '\r', '\ufb33', '1', '\ud83d\ude00', '\u0080', '\u00f6'];
    const object = Object.fromEntries(keys.map((key, index) => [key, index]));
    // Read the order off the text: parsing would put the integer-like key "1" first again.
    const order = [...canonicalJson(object).matchAll(/"((?:[^"\\]|\\.)*)":/g)].map((match) => JSON.parse(`"${match[1]}"`) as string);
    expect(order).toEqual(['\r', '1', '\u0080', '\u00f6', '\u20ac', '\ud83d\ude00', '\ufb33']);
  });

  it('writes numbers and strings as ECMAScript does', () => {
    expect(canonicalJson([1e21, 1e-7, 0.000001, -0, 333333333.3333333, 4.5, 2 ** 53])).toBe('[1e+21,1e-7,0.000001,0,333333333.3333333,4.5,9007199254740992]');
    expect(canonicalJson('"\\\b\f\n\r\t\u0001\u001f é €')).toBe('"\\"\\\\\\b\\f\\n\\r\\t\\u0001\\u001f é €"');
    expect(canonicalJson('\ud800')).toBe('"\\ud800"');
  });

  it('maps non-JSON values as JSON.stringify does, and refuses BigInts and cycles', () => {
    expect(canonicalJson({ a: undefined, b: () => 1, c: [undefined, NaN, Infinity], d: new Date(Date.UTC(2025, 0, 1)) })).toBe(
      '{"c":[null,null,null],"d":"2025-01-01T00:00:00.000Z"}',
    );
    expect(() => canonicalJson({ a: 1n })).toThrow(TypeError);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow(/cycle/);
    expect(() => canonicalJson(undefined)).toThrow(TypeError);
    // The same object twice is not a cycle.
    const shared = { x: 1 };
    expect(canonicalJson([shared, shared])).toBe('[{"x":1},{"x":1}]');
  });

  it('is stable over a parse round trip, which is what lets a file be re-hashed', () => {
    const values: unknown[] = [
      { z: [1, 2, { b: 'x', a: undefined }], a: 'é\u2028', n: -1.5e-300, m: { '': 0, __proto__x: 1 } },
      JSON.parse('{"__proto__": {"polluted": true}, "k": 1}'),
      [null, true, false, 0.1 + 0.2],
    ];
    for (const value of values) {
      const once = canonicalJson(value);
      expect(canonicalJson(JSON.parse(once))).toBe(once);
    }
    expect(canonicalJson(JSON.parse('{"__proto__":{"polluted":true},"k":1}'))).toBe('{"__proto__":{"polluted":true},"k":1}');
  });
});

describe('canonicalJson fast path', () => {
  /** A small deterministic generator (no Math.random: a failure must reproduce). */
  function random(seed: number): () => number {
    let state = seed;
    return () => ((state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  }
  const KEYS = ['a', 'b', 'B', '10', '2', '__proto__', 'é', '\u20ac', '', 'z z', 'toJSON_'];
  function value(next: () => number, depth: number): unknown {
    const pick = Math.floor(next() * (depth > 3 ? 6 : 10));
    switch (pick) {
      case 0: return null;
      case 1: return next() < 0.5;
      case 2: return [0, -0, 1.5, 1e21, -1e-7, NaN, Infinity][Math.floor(next() * 7)];
      case 3: return ['', 'x', '"\\\n', '\ud800', 'Hôtel €'][Math.floor(next() * 5)];
      case 4: return undefined;
      case 5: return new Date(Date.UTC(2025, 0, 1 + Math.floor(next() * 300)));
      case 6: return Array.from({ length: Math.floor(next() * 4) }, () => value(next, depth + 1));
      case 7: return new String('boxed');
      default: {
        const object: Record<string, unknown> = next() < 0.3 ? Object.create(null) : {};
        const count = Math.floor(next() * 5);
        for (let i = 0; i < count; i++) Object.defineProperty(object, KEYS[Math.floor(next() * KEYS.length)]!, { value: value(next, depth + 1), enumerable: true, writable: true, configurable: true });
        return object;
      }
    }
  }

  it('writes exactly what the member-by-member reference writes, for 2,000 generated values', () => {
    const next = random(42);
    for (let i = 0; i < 2000; i++) {
      const input = { root: value(next, 0) };
      expect(canonicalJson(input)).toBe(writeCanonical(input));
    }
  });

  it('leaves already sorted objects uncopied and still sorts foreign ones', () => {
    expect(canonicalJson({ a: 1, b: { c: [1, { d: 2, e: 3 }] } })).toBe('{"a":1,"b":{"c":[1,{"d":2,"e":3}]}}');
    expect(canonicalJson({ 10: 'x', 2: 'y', a: 'z' })).toBe('{"10":"x","2":"y","a":"z"}');
    const deep: unknown[] = [];
    let cursor = deep;
    for (let i = 0; i < 100; i++) cursor.push((cursor = []));
    expect(canonicalJson(deep)).toBe(writeCanonical(deep));
  });
});

describe('sha256Hex', () => {
  it('hashes UTF-8 text with WebCrypto', async () => {
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(await sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(await sha256Hex('Hôtel €120 \ud83d\ude00')).toBe(createHash('sha256').update('Hôtel €120 \ud83d\ude00', 'utf8').digest('hex'));
  });
});
