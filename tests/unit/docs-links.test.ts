import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, test } from 'vitest';
import { screenshotProblems } from '../../scripts/check-screenshots.mjs';

/**
 * The README and docs/ send a reader to files and commands: every relative link
 * must reach a file or folder of the repository, and every `npm run <script>`
 * must name a script package.json has. A moved file or a renamed script fails
 * here instead of in a reader's hands.
 */
const DOCS = ['README.md', 'CONTRIBUTING.md', ...readdirSync('docs').filter((f) => f.endsWith('.md')).map((f) => join('docs', f))].filter((f) =>
  existsSync(f),
);
const scripts = Object.keys(JSON.parse(readFileSync('package.json', 'utf8')).scripts as Record<string, string>);

/** Link targets of Markdown links `[text](target)`, images included, and of HTML `src`/`srcset`/`href` attributes. */
export function linkTargets(markdown: string): string[] {
  const withoutCode = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  const markdownLinks = [...withoutCode.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!);
  const htmlLinks = [...withoutCode.matchAll(/\b(?:src|srcset|href)="([^"]+)"/g)].map((m) => m[1]!);
  return [...markdownLinks, ...htmlLinks];
}

const isRelative = (target: string) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('#');

describe('the README and docs/', () => {
  test('exist: the README and the docs it points to', () => {
    expect(DOCS).toContain('README.md');
  });

  test.each(DOCS)('%s: every relative link reaches a file of the repository', (doc) => {
    const missing = linkTargets(readFileSync(doc, 'utf8'))
      .filter(isRelative)
      .map((target) => normalize(join(dirname(doc), decodeURIComponent(target.split('#')[0]!))))
      .filter((path) => !existsSync(path));
    expect(missing).toEqual([]);
  });

  test.each(DOCS)('%s: every `npm run` names a script of package.json', (doc) => {
    const named = [...readFileSync(doc, 'utf8').matchAll(/npm run ([a-z0-9:-]+)/gi)].map((m) => m[1]!);
    expect(named.filter((name) => !scripts.includes(name))).toEqual([]);
  });

  test('the README shows every picture npm run screenshots makes, each a PNG of its stated size under 150 kB', () => {
    expect(screenshotProblems('docs/images', readFileSync('README.md', 'utf8'))).toEqual([]);
  });
});

describe('linkTargets', () => {
  test('finds Markdown links and images and HTML sources, not links inside code', () => {
    const text = '[a](docs/a.md) ![b](docs/images/b.png "B") <source srcset="docs/c.png"> `[d](e.md)`\n```\n[f](g.md)\n```';
    expect(linkTargets(text)).toEqual(['docs/a.md', 'docs/images/b.png', 'docs/c.png']);
  });
});
