import { describe, expect, test } from 'vitest';
import { deviceLabel, userAgentBrands } from './device-label.ts';

const LINUX_CHROME_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';

describe('deviceLabel', () => {
  test('says Chromium when the brands are Chromium’s alone, Chrome when Google Chrome is among them', () => {
    expect(deviceLabel(LINUX_CHROME_UA, ['Chromium', 'Not)A;Brand'])).toBe('Chromium on Linux');
    expect(deviceLabel(LINUX_CHROME_UA, ['Chromium', 'Google Chrome', 'Not)A;Brand'])).toBe('Chrome on Linux');
    expect(deviceLabel(LINUX_CHROME_UA)).toBe('Chrome on Linux');
    expect(deviceLabel('Mozilla/5.0 (X11; Linux x86_64) Chromium/120.0 Chrome/120.0 Safari/537.36')).toBe('Chromium on Linux');
    expect(deviceLabel(`${LINUX_CHROME_UA} Edg/156.0`, ['Chromium', 'Microsoft Edge'])).toBe('Edge on Linux');
  });

  test('reads the brands of a navigator that has client hints, and none of one that has not', () => {
    expect(userAgentBrands({ userAgentData: { brands: [{ brand: 'Chromium', version: '156' }, { brand: 7 }] } })).toEqual(['Chromium']);
    expect(userAgentBrands({})).toEqual([]);
    expect(userAgentBrands({ userAgentData: { brands: 'Chromium' } })).toEqual([]);
  });
});
