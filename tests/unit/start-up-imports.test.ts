import { relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import { startUpImports } from './start-up-imports.ts';

describe('the page at start-up', () => {
  const { files, packages } = startUpImports('src/main.ts');

  test('reaches the app through static imports (the walk itself works)', () => {
    const reached = [...files].map((f) => relative(process.cwd(), f));
    expect(reached).toContain('src/App.svelte');
    expect(reached).toContain('src/storage/conversations-repo.ts');
    expect(packages.has('dexie')).toBe(true);
    expect(packages.has('svelte')).toBe(true);
  });

  // zod was a quarter of the page's start-up JavaScript (issue 15): the page reads what
  // the worker validated, and loads the schemas on demand (settings-repo.ts) when a row
  // needs them. A value import of a record module (they build zod schemas at load) brings
  // them all back. zod-config.ts sets zod's no-eval configuration (for the
  // Content-Security-Policy) without importing zod, so zod's core stays off the start too.
  test('imports no zod schemas: the record schemas load on demand, not with the first screen', () => {
    // Names the modules that import zod, when one does: follow their importers back from there.
    const importers = (packages.get('zod') ?? []).map((f) => relative(process.cwd(), f));
    expect(importers).toEqual([]);
  });
});
