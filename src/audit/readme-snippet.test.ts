import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RULE_SCENARIO } from './testing/seed-rule-and-mcp-records.ts';

const fixtures = new URL('./fixtures/', import.meta.url);
const dir = mkdtempSync(join(tmpdir(), 'pausepoint-audit-readme-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * The first ```js block after `heading` in a Markdown file of the repository, or
 * undefined when the file has no such section. The snippet's home is
 * docs/formats.md ("Audit log"); the README may show a copy.
 */
function jsBlockAfter(path: string, heading: string): string | undefined {
  const text = readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
  const at = text.indexOf(heading);
  if (at < 0) return undefined;
  return /```js\n([\s\S]*?)```/.exec(text.slice(at))?.[1];
}

function snippet(): string {
  const block = jsBlockAfter('docs/formats.md', '## Audit log');
  if (!block) throw new Error('docs/formats.md has no js code block under "## Audit log".');
  return block;
}

function run(fixture: string): { ok: boolean; output: string } {
  const script = join(dir, 'verify-audit.mjs');
  writeFileSync(script, snippet());
  try {
    const output = execFileSync(process.execPath, [script, new URL(fixture, fixtures).pathname], { encoding: 'utf8', stdio: 'pipe' });
    return { ok: true, output };
  } catch (error) {
    return { ok: false, output: String((error as { stderr?: unknown }).stderr) };
  }
}

describe('the verification snippet of docs/formats.md', () => {
  it('is the one the README shows, while the README shows one, and the one the user guide shows', () => {
    const inReadme = jsBlockAfter('README.md', '## Audit log export');
    if (inReadme !== undefined) expect(inReadme).toBe(snippet());
    expect(jsBlockAfter('docs/user-guide.md', '## Audit log export')).toBe(snippet());
  });

  it('verifies a real export with the same head hash the app reports', () => {
    const { head_hash } = JSON.parse(readFileSync(new URL('audit-log-v1.json', fixtures), 'utf8')) as { head_hash: string };
    expect(run('audit-log-v1.json')).toEqual({ ok: true, output: `Verified: 11 entries, head hash ${head_hash}\n` });
    for (const name of ['audit-log-v2.json', 'audit-log-v3.json', 'audit-log-v4.json']) {
      const file = JSON.parse(readFileSync(new URL(name, fixtures), 'utf8')) as { head_hash: string; entry_count: number };
      expect(run(name)).toEqual({ ok: true, output: `Verified: ${file.entry_count} entries, head hash ${file.head_hash}\n` });
    }
  });

  it('rejects a tampered file at the changed entry, and a future version', () => {
    expect(run('tampered-entry-v1.json')).toMatchObject({ ok: false, output: expect.stringContaining('entry 3 (pp-03-declined) does not match') });
    expect(run('tampered-entry-v2.json')).toMatchObject({ ok: false, output: expect.stringContaining(`entry 15 (${RULE_SCENARIO.ruleDenied}) does not match`) });
    // Version 3's sample holds a dry run before it: the denied entry is one further on.
    expect(run('tampered-entry-v3.json')).toMatchObject({ ok: false, output: expect.stringContaining(`entry 16 (${RULE_SCENARIO.ruleDenied}) does not match`) });
    expect(run('future-version-v5.json')).toMatchObject({ ok: false, output: expect.stringContaining('not a version 1 to 4 audit log') });
    // Version 4's head holds the devices too: a swapped key fails at the first entry.
    expect(run('tampered-devices-v4.json')).toMatchObject({ ok: false, output: expect.stringContaining('entry 1 (pp-01-approved) does not match (or the metadata was changed)') });
  });

  it('point 13: rejects a version 3 file whose metadata or skipped records were edited', () => {
    expect(run('tampered-metadata-v3.json')).toMatchObject({ ok: false, output: expect.stringContaining('entry 1 (pp-01-approved) does not match (or the metadata was changed)') });
    expect(run('tampered-skipped-v3.json')).toMatchObject({ ok: false, output: expect.stringContaining('the skipped records changed') });
  });
});
