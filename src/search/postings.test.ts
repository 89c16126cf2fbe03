import { describe, expect, test } from 'vitest';
import { intersect, union, updatePostings } from './postings.ts';

const list = (...values: number[]) => Uint32Array.from(values);

describe('postings', () => {
  test('an update merges what is added and drops what is removed, kept ascending and distinct', () => {
    expect([...updatePostings(list(2, 5, 9), [1, 5, 7, 12], [9])]).toEqual([1, 2, 5, 7, 12]);
    expect([...updatePostings(list(), [3, 4], [])]).toEqual([3, 4]);
    expect([...updatePostings(list(3, 4), [], [3, 4])]).toEqual([]);
    // Removing what is not there changes nothing.
    expect([...updatePostings(list(3), [], [8])]).toEqual([3]);
  });

  test('intersect keeps what every list holds; union what any holds', () => {
    const many = Uint32Array.from({ length: 10_000 }, (_, i) => i * 2);
    expect([...intersect([many, list(3, 4, 9_998, 20_001), list(1, 4, 9_998)])]).toEqual([4, 9_998]);
    expect([...intersect([list(1, 2), list()])]).toEqual([]);
    expect([...union([list(1, 5), list(2, 5, 9), list(0)])]).toEqual([0, 1, 2, 5, 9]);
  });
});
