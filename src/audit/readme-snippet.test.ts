import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RULE_SCENARIO } from './testing/seed-rule-and-mcp-records.ts';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const fixtures = new URL('./fixtures/', import.meta.url);
const dir = mkdtempSync(join(tmpdir(), 'pausepoint-audit-readme-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The first ```js block of the README's "Audit log export" section. */
function snippet(): string {
  const section = readme.slice(readme.indexOf('## Audit log export'));
  const match = /```js\n([\s\S]*?)```/.exec(section);
  if (!match?.[1]) throw new Error('The README section "Audit log export" has no js code block.');
  return match[1];
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

describe('the README verification snippet', () => {
  it('verifies a real export with the same head hash the app reports', () => {
    const { head_hash } = JSON.parse(readFileSync(new URL('audit-log-v1.json', fixtures), 'utf8')) as { head_hash: string };
    expect(run('audit-log-v1.json')).toEqual({ ok: true, output: `Verified: 11 entries, head hash ${head_hash}\n` });
    const v2 = JSON.parse(readFileSync(new URL('audit-log-v2.json', fixtures), 'utf8')) as { head_hash: string; entry_count: number };
    expect(run('audit-log-v2.json')).toEqual({ ok: true, output: `Verified: ${v2.entry_count} entries, head hash ${v2.head_hash}\n` });
  });

  it('rejects a tampered file at the changed entry, and a future version', () => {
    expect(run('tampered-entry-v1.json')).toMatchObject({ ok: false, output: expect.stringContaining('entry 3 (pp-03-declined) does not match') });
    expect(run('tampered-entry-v2.json')).toMatchObject({ ok: false, output: expect.stringContaining(`entry 15 (${RULE_SCENARIO.ruleDenied}) does not match`) });
    expect(run('future-version-v4.json')).toMatchObject({ ok: false, output: expect.stringContaining('not a version 1, 2 or 3 audit log') });
  });
});
