import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { manifest } from './manifest.ts';

const PUBLIC = join(import.meta.dirname, '../../public');

/** Width and height from a PNG's IHDR chunk, and whether it has an alpha channel. */
function pngInfo(file: string): { width: number; height: number; alpha: boolean } {
  const bytes = readFileSync(file);
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  const colourType = bytes[25];
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20), alpha: colourType === 4 || colourType === 6 };
}

describe('web app manifest', () => {
  it('has what browsers require to offer installation', () => {
    expect(manifest).toMatchObject({
      name: 'Pausepoint',
      short_name: 'Pausepoint',
      start_url: '/',
      scope: '/',
      display: 'standalone',
      theme_color: '#1f3a5f',
      background_color: expect.stringMatching(/^#[0-9a-f]{6}$/),
      description: expect.any(String),
    });
    const png = manifest.icons.filter((icon) => icon.type === 'image/png');
    expect(png.filter((icon) => icon.purpose === 'any').map((icon) => icon.sizes)).toEqual(['192x192', '512x512']);
    expect(png.filter((icon) => icon.purpose === 'maskable').map((icon) => icon.sizes)).toEqual(['512x512']);
  });

  it.each(manifest.icons.filter((icon) => icon.type === 'image/png'))('$src exists at its declared size', (icon) => {
    const [width, height] = icon.sizes.split('x').map(Number);
    const info = pngInfo(join(PUBLIC, icon.src));
    expect({ width: info.width, height: info.height }).toEqual({ width, height });
    // A maskable icon must be full-bleed: transparent corners would show through the platform's mask.
    if (icon.purpose === 'maskable') expect(info.alpha).toBe(false);
  });

  it('theme colour matches index.html and the icon', () => {
    expect(readFileSync(join(import.meta.dirname, '../../index.html'), 'utf8')).toContain(`<meta name="theme-color" content="${manifest.theme_color}" />`);
    expect(readFileSync(join(PUBLIC, 'icon.svg'), 'utf8')).toContain(`fill="${manifest.theme_color}"`);
  });

  it('every icon file exists, and so does the Apple touch icon (180, full-bleed)', () => {
    for (const icon of manifest.icons) expect(existsSync(join(PUBLIC, icon.src))).toBe(true);
    expect(pngInfo(join(PUBLIC, 'apple-touch-icon.png'))).toEqual({ width: 180, height: 180, alpha: false });
  });
});
