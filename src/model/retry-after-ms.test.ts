import { describe, expect, it } from 'vitest';
import { retryAfterMs } from './retry-after-ms.ts';

const NOW = Date.parse('2026-03-01T12:00:00Z');

describe('retryAfterMs', () => {
  it('reads seconds, fractional seconds and retry-after-ms', () => {
    expect(retryAfterMs(new Headers({ 'retry-after': '20' }), NOW)).toBe(20_000);
    expect(retryAfterMs(new Headers({ 'retry-after': '1.5' }), NOW)).toBe(1500);
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '250', 'retry-after': '20' }), NOW)).toBe(250);
  });

  it('reads an HTTP date, and a past one as no wait', () => {
    expect(retryAfterMs(new Headers({ 'retry-after': 'Sun, 01 Mar 2026 12:00:30 GMT' }), NOW)).toBe(30_000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Sun, 01 Mar 2026 11:00:00 GMT' }), NOW)).toBe(0);
  });

  it('is undefined when absent or unreadable', () => {
    expect(retryAfterMs(undefined, NOW)).toBeUndefined();
    expect(retryAfterMs(new Headers(), NOW)).toBeUndefined();
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }), NOW)).toBeUndefined();
    expect(retryAfterMs(new Headers({ 'retry-after': '-5' }), NOW)).toBeUndefined();
  });
});
