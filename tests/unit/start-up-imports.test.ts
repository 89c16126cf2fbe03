import { readFileSync } from 'node:fs';
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

  // The start-up budget (npm run size): what only a form's card, a payload's editor, a pairing link, Settings or
  // the sign-in popup uses loads on demand, with them.
  test('leaves out what the first screen does not use: a form’s or payload’s draft, the pairing link, the MCP, sync and occasional calls, the OAuth callback', () => {
    const reached = [...files].map((f) => relative(process.cwd(), f));
    const onDemand = [
      'src/ui/cards/form-draft.svelte.ts',
      'src/ui/cards/payload-draft.svelte.ts',
      'src/ui/cards/payload-diff.ts',
      'src/engine/check-form.ts',
      'src/ui/devices/pairing-fragment.ts',
      'src/ui/devices/JoinDialog.svelte',
      'src/worker/mcp-calls.ts',
      'src/worker/sync-calls.ts',
      'src/worker/option-calls.ts',
      'src/ui/mcp/oauth-callback.ts',
      'src/ui/mcp/relay-oauth-callback.ts',
    ];
    expect(reached.filter((file) => onDemand.includes(file))).toEqual([]);
  });

  // The same budget after issue 28's cards: what shows only once asked for (a card's rule preview,
  // once its details are opened; a confirmation, once a send or delete asks for one; the rename form, once
  // Rename is pressed) loads then.
  test('leaves out what shows only once asked for: the rule preview, the confirmation dialog, the rename form', () => {
    const reached = [...files].map((f) => relative(process.cwd(), f));
    const onDemand = ['src/ui/common/RulePreview.svelte', 'src/ui/common/ConfirmDialog.svelte', 'src/ui/sidebar/RenameForm.svelte'];
    expect(reached.filter((file) => onDemand.includes(file))).toEqual([]);
  });

  // Issue 27's attachments: the composer's Attach files button and input are on the start path, and the
  // reading, hashing, limits, chips and a message's files load with the first file (attachments-ui.ts);
  // a card's “What the model will receive” loads the engine's formatter when it is opened.
  test('leaves out the attachments’ tray, chips and files, and the decision preview’s formatter', () => {
    const reached = [...files].map((f) => relative(process.cwd(), f));
    const onDemand = [
      'src/ui/conversation/attachments-ui.ts',
      'src/ui/conversation/attachment-tray.svelte.ts',
      'src/ui/conversation/AttachmentChips.svelte',
      'src/ui/conversation/MessageAttachments.svelte',
      'src/attachments/check-attachments.ts',
      'src/attachments/read-attached-file.ts',
      'src/attachments/pdf-text.ts',
      'src/attachments/pdf-worker.ts',
      'src/storage/attachments-repo.ts',
      'src/ui/preview-decision.ts',
      'src/engine/decision-message.ts',
      'src/pwa/storage-persistence.ts',
    ];
    expect(reached.filter((file) => onDemand.includes(file))).toEqual([]);
  });

  // pdf.js is ≈ 134 kB gzip on the page and 1.2 MB in its worker: it loads with the first PDF attached (pdf-text.ts).
  test('does not load pdf.js', () => {
    expect(packages.get('pdfjs-dist') ?? []).toEqual([]);
  });

  // Anything from svelte/reactivity at start-up keeps its SvelteMap in the start chunk too
  // (the lazy chunks that use it share the module): ≈ 0.3 kB gzip (narrow-viewport.svelte.ts).
  test('imports nothing from svelte/reactivity', () => {
    const importers = [...files].filter((f) => /from\s+['"]svelte\/reactivity['"]/.test(readFileSync(f, 'utf8')));
    expect(importers.map((f) => relative(process.cwd(), f))).toEqual([]);
  });
});

describe('the agent worker at start-up', () => {
  // Its entry holds what comes until the agent runs (run-agent.ts, loaded on the first intent or once the page has painted).
  test('its entry imports nothing but the word that starts the agent', () => {
    const reached = [...startUpImports('src/worker/agent.worker.ts').files].map((f) => relative(process.cwd(), f));
    expect(reached.sort()).toEqual(['src/worker/agent.worker.ts', 'src/worker/start-agent.ts']);
  });

  const { files, packages } = startUpImports('src/worker/run-agent.ts');

  test('reaches the engine and the host through static imports (the walk itself works)', () => {
    const reached = [...files].map((f) => relative(process.cwd(), f));
    expect(reached).toContain('src/worker/agent-host.ts');
    expect(reached).toContain('src/engine/engine.ts');
    expect(packages.has('dexie')).toBe(true);
  });

  // The openai SDK was 60 % of the worker's code (issue 15), compiled and run before the
  // worker could take its first intent, beside the page's first render. A worker that only
  // decides or expires a card needs none of it: build-model.ts brings it, loaded on demand.
  test('does not load the openai SDK: the model code loads on demand', () => {
    const importers = (packages.get('openai') ?? []).map((f) => relative(process.cwd(), f));
    expect(importers).toEqual([]);
  });
});
