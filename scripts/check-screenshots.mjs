// Checks the README's pictures: every picture of scripts/screenshot-list.mjs, in
// each colour scheme, is a PNG of its stated size and under the size limit, and
// the README shows each one. Not pixels: they change with fonts and dates.
//   node scripts/check-screenshots.mjs [folder]   (default docs/images)
import { readFileSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PICTURES, SCHEMES, MAX_BYTES } from './screenshot-list.mjs';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width and height from a PNG's IHDR chunk, which the format requires first. */
export function pngSize(bytes) {
  if (bytes.length < 24 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE) || bytes.toString('latin1', 12, 16) !== 'IHDR') return undefined;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

export function screenshotProblems(folder, readme) {
  const problems = [];
  for (const picture of PICTURES) {
    for (const scheme of SCHEMES) {
      const name = `${picture.name}-${scheme}.png`;
      const file = join(folder, name);
      if (!existsSync(file)) {
        problems.push(`${file} is missing (npm run screenshots makes it)`);
        continue;
      }
      const size = pngSize(readFileSync(file));
      if (!size) problems.push(`${file} is not a PNG`);
      else if (size.width !== picture.width || size.height !== picture.height)
        problems.push(`${file} is ${size.width}×${size.height}, not ${picture.width}×${picture.height}`);
      const bytes = statSync(file).size;
      if (bytes > MAX_BYTES) problems.push(`${file} is ${(bytes / 1024).toFixed(0)} kB, over ${MAX_BYTES / 1024} kB`);
      if (readme !== undefined && !readme.includes(`docs/images/${name}`)) problems.push(`README.md does not show docs/images/${name}`);
    }
  }
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const folder = process.argv[2] ?? 'docs/images';
  const problems = screenshotProblems(folder, readFileSync('README.md', 'utf8'));
  for (const problem of problems) console.error(problem);
  console.log(problems.length === 0 ? `${PICTURES.length * SCHEMES.length} pictures in ${folder}: PNGs of their stated sizes, each shown by the README` : `${problems.length} problems`);
  process.exit(problems.length === 0 ? 0 : 1);
}
