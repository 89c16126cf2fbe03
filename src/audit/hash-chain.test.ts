import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.ts';
import { chainEntry, entryText, expectedHash, GENESIS_HASH } from './hash-chain.ts';

describe('entryText and chainEntry', () => {
  it('serialise exactly the canonical JSON of the entry with its prev_hash', async () => {
    const prev = 'a'.repeat(64);
    for (const body of [{}, { a: 1 }, { z: [1, { y: 2, x: 1 }] }, { id: 'pp', title: 'T', reason: null, payload: { b: 1, a: 2 } }]) {
      const { hash, text } = chainEntry(entryText(body), prev);
      const parsed = JSON.parse(text) as Record<string, unknown>;
      expect(parsed.hash).toBe(hash);
      expect(text.slice(0, text.lastIndexOf(',"hash"')) + '}').toBe(canonicalJson({ ...body, prev_hash: prev }));
      expect(await expectedHash(parsed)).toBe(hash);
    }
  });

  it('refuses a body that already names the chain members', () => {
    expect(() => entryText({ prev_hash: GENESIS_HASH })).toThrow(/prev_hash/);
    expect(() => entryText({ hash: GENESIS_HASH })).toThrow(/hash/);
  });
});
