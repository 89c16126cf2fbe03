import { describe, expect, test } from 'vitest';
import { packShards, SHARD_POSTINGS, SHARD_TERMS, shardEntries, shardKeyOf, shardPostings, shardPrefixed } from './term-shards.ts';

const list = (...values: number[]) => Uint32Array.from(values);
const run = (from: number, count: number) => Uint32Array.from({ length: count }, (_, i) => from + i);
const plain = (entries: [string, Uint32Array][]) => entries.map(([term, postings]) => [term, [...postings]]);

describe('term shards', () => {
  test('a shard holds its terms and their postings, each found by term and by prefix', () => {
    const [row, ...more] = packShards('', [
      ['cafe', list(1, 5)],
      ['cafes', list(2)],
      ['cat', list(3, 4, 9)],
    ]);
    expect(more).toEqual([]);
    expect(row!.term).toBe('');
    expect([...shardPostings(row!, 'cat')!]).toEqual([3, 4, 9]);
    expect([...shardPostings(row!, 'cafe')!]).toEqual([1, 5]);
    expect(shardPostings(row!, 'ca')).toBeUndefined();
    expect(shardPrefixed(row!, 'caf').map((p) => [...p])).toEqual([[1, 5], [2]]);
    expect(plain(shardEntries(row!))).toEqual([['cafe', [1, 5]], ['cafes', [2]], ['cat', [3, 4, 9]]]);
  });

  test('packing splits at the bounds: the first shard keeps the range’s key, the others are keyed by their first term, and a long list has a shard of its own', () => {
    const terms = Array.from({ length: SHARD_TERMS + 10 }, (_, i) => [`a${String(i).padStart(4, '0')}`, list(i)] as [string, Uint32Array]);
    const entries: [string, Uint32Array][] = [...terms, ['b', run(0, SHARD_POSTINGS + 1)], ['c', list(7)]];
    const rows = packShards('0', entries);
    expect(rows.map((r) => r.term)).toEqual(['0', `a${String(SHARD_TERMS).padStart(4, '0')}`, 'b', 'c']);
    expect(rows[0]!.ends.length).toBe(SHARD_TERMS);
    expect(rows.flatMap((row) => plain(shardEntries(row)))).toEqual(plain(entries));
  });

  test('a term’s shard is the last keyed at or before it', () => {
    const keys = ['', 'f', 'm'];
    expect(shardKeyOf(keys, 'a')).toBe('');
    expect(shardKeyOf(keys, 'f')).toBe('f');
    expect(shardKeyOf(keys, 'ga')).toBe('f');
    expect(shardKeyOf(keys, 'zz')).toBe('m');
    expect(shardKeyOf(['f'], 'a')).toBeUndefined();
    expect(shardKeyOf([], 'a')).toBeUndefined();
  });

  test('packing nothing makes no shard', () => {
    expect(packShards('x', [])).toEqual([]);
  });
});
