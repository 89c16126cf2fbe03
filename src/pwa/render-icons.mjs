// Renders the PNG icons the manifest lists from public/icon.svg, with headless
// Chromium (no image library needed). Run after changing the SVG:
//   node src/pwa/render-icons.mjs
// The PNGs are committed; the build never runs this.
//
// - icon-192.png, icon-512.png: the SVG as it is (rounded square, transparent corners).
// - icon-512-maskable.png: the SVG over a full-bleed background of its own colour, so
//   any mask shape the platform applies is filled. The pause bars span 31%–69% by
//   25%–75% of the icon, inside the maskable safe zone (a centred circle of 80%
//   diameter), so no mask clips them.
// - apple-touch-icon.png (180): full-bleed too; iOS rounds the corners itself and
//   would fill transparent corners with black.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '../..');
const publicDir = join(root, 'public');
const svg = readFileSync(join(publicDir, 'icon.svg'), 'utf8');
const background = /fill="(#[0-9a-fA-F]{3,8})"/.exec(svg)?.[1];
if (!background) throw new Error('public/icon.svg: no fill colour found for the full-bleed background');
const chromium = process.env.PAUSEPOINT_CHROMIUM ?? '/usr/bin/chromium';

const icons = [
  { file: 'icon-192.png', size: 192, fullBleed: false },
  { file: 'icon-512.png', size: 512, fullBleed: false },
  { file: 'icon-512-maskable.png', size: 512, fullBleed: true },
  { file: 'apple-touch-icon.png', size: 180, fullBleed: true },
];

const work = mkdtempSync(join(tmpdir(), 'pausepoint-icons-'));
try {
  for (const { file, size, fullBleed } of icons) {
    const page = join(work, `${size}-${fullBleed ? 'bleed' : 'plain'}.html`);
    const pageBackground = fullBleed ? background : 'transparent';
    writeFileSync(
      page,
      `<!doctype html><html><head><style>html,body{margin:0;padding:0;background:${pageBackground};overflow:hidden}` +
        `svg{display:block;width:${size}px;height:${size}px}</style></head><body>${svg}</body></html>`,
    );
    execFileSync(
      chromium,
      [
        '--headless',
        '--disable-gpu',
        '--no-sandbox',
        '--hide-scrollbars',
        '--default-background-color=00000000',
        `--window-size=${size},${size}`,
        `--screenshot=${join(publicDir, file)}`,
        `file://${page}`,
      ],
      { stdio: 'ignore' },
    );
    console.log(`public/${file} (${size}×${size}${fullBleed ? ', full-bleed' : ''})`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
