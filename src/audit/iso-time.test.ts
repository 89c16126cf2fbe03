import { describe, expect, it } from 'vitest';
import { isoTime } from './iso-time.ts';

describe('isoTime', () => {
  it('writes what toISOString writes, across days, negative times and the edges of the range', () => {
    const samples = [0, 1, -1, 999, 86_399_999, 86_400_000, -86_400_001, Date.UTC(2025, 0, 15, 9, 1, 2, 3), Date.UTC(2024, 1, 29, 23, 59, 59, 999)];
    samples.push(-62_167_219_200_000, 253_402_300_799_999, 1.5, -1.5);
    for (let n = 0; n < 2000; n++) samples.push(Math.round(((n * 7_919) % 2000) * 1.37e11 - 6e13) + n);
    for (const ms of samples) expect(isoTime(ms)).toBe(new Date(ms).toISOString());
  });

  it('refuses what is no time in the years 0 to 9999', () => {
    for (const ms of [NaN, Infinity, -Infinity, -62_167_219_200_001, 253_402_300_800_000, 8.64e15 + 1]) expect(isoTime(ms)).toBeNull();
  });
});
