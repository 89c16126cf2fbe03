import { afterEach, describe, expect, it, vi } from 'vitest';
import { isPairingCode, newPairingCode, normalisePairingCode, PAIRING_CODE_ALPHABET, PAIRING_CODE_LENGTH } from './pairing-code.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the pairing code alphabet', () => {
  it('has no look-alikes and gives at least 50 bits', () => {
    expect(PAIRING_CODE_ALPHABET).toBe('0123456789ACDEFGHJKMNPRTVWXY');
    expect(new Set(PAIRING_CODE_ALPHABET).size).toBe(28);
    for (const lookAlike of 'OQILSZBU') expect(PAIRING_CODE_ALPHABET).not.toContain(lookAlike);
    expect(PAIRING_CODE_LENGTH * Math.log2(PAIRING_CODE_ALPHABET.length)).toBeGreaterThanOrEqual(57.6);
  });
});

describe('newPairingCode', () => {
  it('is three groups of four symbols of the alphabet, normalised already, and new each time', () => {
    const codes = Array.from({ length: 1000 }, () => newPairingCode());
    for (const code of codes) {
      expect(code).toMatch(/^[0-9ACDEFGHJKMNPRTVWXY]{4}-[0-9ACDEFGHJKMNPRTVWXY]{4}-[0-9ACDEFGHJKMNPRTVWXY]{4}$/);
      expect(normalisePairingCode(code)).toBe(code);
      expect(isPairingCode(code)).toBe(true);
    }
    expect(new Set(codes).size).toBe(1000);
  });

  it('draws every symbol alike: bytes from 252 up are drawn again, not folded onto the first symbols', () => {
    // 252 = 9 × 28: the bytes 252–255 would make 0–3 more likely if they were taken modulo 28.
    const draws = [[252, 253, 254, 255, 0, 27, 28, 55, 251, 1, 2, 3], [4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]];
    vi.spyOn(crypto, 'getRandomValues').mockImplementation(<T extends ArrayBufferView | null>(array: T): T => {
      if (array instanceof Uint8Array) array.set(draws.shift() ?? []);
      return array;
    });
    // 0 → '0', 27 → 'Y', 28 → '0', 55 → 'Y', 251 = 8 × 28 + 27 → 'Y', then 1, 2, 3, then 4, 5, 6, 7 from the second draw.
    expect(newPairingCode()).toBe('0Y0Y-Y123-4567');
    expect(draws).toEqual([]);
  });

  it('uses every symbol of the alphabet, each about as often', () => {
    const counts = new Map<string, number>();
    for (let index = 0; index < 1000; index++) {
      for (const symbol of newPairingCode().replaceAll('-', '')) counts.set(symbol, (counts.get(symbol) ?? 0) + 1);
    }
    expect([...counts.keys()].sort().join('')).toBe([...PAIRING_CODE_ALPHABET].sort().join(''));
    // 12,000 draws over 28 symbols: about 429 each; these bounds are more than 6 standard deviations out.
    for (const [symbol, count] of counts) expect(count, symbol).toBeGreaterThan(300);
    for (const [symbol, count] of counts) expect(count, symbol).toBeLessThan(560);
  });
});

describe('normalisePairingCode', () => {
  it('takes what a person types: any case, spaces and dashes anywhere, and the left-out look-alikes', () => {
    const cases: [string, string][] = [
      ['7kx3-mn9a-40rh', '7KX3-MN9A-40RH'],
      ['7KX3 MN9A 40RH', '7KX3-MN9A-40RH'],
      ['  7kx3mn9a40rh\n', '7KX3-MN9A-40RH'],
      ['7K-X3M-N9A4-0RH', '7KX3-MN9A-40RH'],
      ['7KX3–MN9A—40RH', '7KX3-MN9A-40RH'],
      ['7KX3-MN9A-4ORH', '7KX3-MN9A-40RH'],
      ['7KX3-MN9A-4oRH', '7KX3-MN9A-40RH'],
      ['7KX3-MN9A-4QRH', '7KX3-MN9A-40RH'],
      ['IiLl-SsZz-BbUu', '1111-5522-88VV'],
      ['７ＫＸ３-ＭＮ９Ａ-４０ＲＨ', '7KX3-MN9A-40RH'],
    ];
    for (const [typed, code] of cases) {
      expect(normalisePairingCode(typed), typed).toBe(code);
      expect(isPairingCode(typed), typed).toBe(true);
    }
  });

  it('is idempotent and leaves what is not a code not one', () => {
    for (const typed of ['', '7KX3-MN9A', '7KX3-MN9A-40RH-1', '7KX3-MN9A-40R!', 'ÄKX3-MN9A-40RH', '7KX3-MN9A-40R🎉']) {
      const once = normalisePairingCode(typed);
      expect(normalisePairingCode(once), typed).toBe(once);
      expect(isPairingCode(typed), typed).toBe(false);
    }
    expect(normalisePairingCode('7kx3mn9')).toBe('7KX3-MN9');
  });
});
