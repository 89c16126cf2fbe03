import js from '@eslint/js';
import ts from 'typescript-eslint';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import svelteConfig from './svelte.config.js';

// The engine is pure TypeScript behind ports. These imports would tie it to a
// runtime (DOM, IndexedDB, a UI framework, a model vendor) and are refused.
const engineForbidden = {
  paths: [
    { name: 'dexie', message: 'The engine talks to storage through its port (src/engine/storage-port.ts).' },
    { name: 'openai', message: 'The engine talks to the model through its port (src/engine/model-port.ts).' },
    { name: 'svelte', message: 'The engine has no UI.' },
    { name: 'dompurify', message: 'The engine has no DOM.' },
    { name: 'marked', message: 'Rendering belongs to the UI.' },
  ],
  patterns: [
    { group: ['svelte/*', '*.svelte', '**/*.svelte'], message: 'The engine has no UI.' },
    { group: ['dexie/*', 'openai/*', 'fake-indexeddb', 'fake-indexeddb/*'], message: 'The engine talks to ports only.' },
    {
      group: ['**/ui/**', '**/storage/**', '**/worker/**', '**/model/**', '**/tools/**'],
      message: 'src/engine must not depend on the layers that host it.',
    },
    {
      // The rooms built on the engine: each reaches the engine through its ports and records, never the reverse.
      group: ['**/sync/**', '**/mcp/**', '**/search/**', '**/attachments/**', '**/backup/**', '**/conversation-file/**', '**/pwa/**', '**/push/**', '**/inert/**'],
      message: 'src/engine must not depend on the rooms built on it: give it what it needs through a port.',
    },
  ],
};

const domGlobals = ['window', 'document', 'navigator', 'localStorage', 'sessionStorage', 'indexedDB', 'location', 'self'];

export default ts.config(
  { ignores: ['dist/', 'dev-dist/', 'node_modules/', 'test-results/', 'playwright-report/'] },
  js.configs.recommended,
  ...ts.configs.recommended,
  ...svelte.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-empty': ['error', { allowEmptyCatch: false }],
    },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: {
      parserOptions: { projectService: false, extraFileExtensions: ['.svelte'], parser: ts.parser, svelteConfig },
    },
  },
  {
    files: ['src/engine/**/*.ts'],
    languageOptions: { globals: { ...globals.es2021 } },
    rules: {
      'no-restricted-imports': ['error', engineForbidden],
      'no-restricted-globals': ['error', ...domGlobals.map((name) => ({ name, message: 'The engine has no DOM: pass what it needs through a port.' }))],
    },
  },
  {
    // Sync runs in the worker as well as the page: the UI reads it, never the reverse.
    files: ['src/sync/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/ui/**', '*.svelte', '**/*.svelte'], message: 'src/sync must not depend on the UI that reads it.' }] },
      ],
    },
  },
  {
    // Storage persists the records of every room (their schemas in src/storage/records/) and implements the ports
    // of rooms above it structurally (TypeScript checks the fit where the room wires it): they import storage, never the reverse.
    files: ['src/storage/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/ui/**', '*.svelte', '**/*.svelte'], message: 'src/storage must not depend on the UI that reads it.' },
            { group: ['**/worker/**'], message: 'src/storage must not depend on the worker that hosts it.' },
            {
              group: ['**/sync/**', '**/mcp/**', '**/search/**', '**/attachments/**', '**/backup/**', '**/conversation-file/**', '**/push/**', '**/pwa/**', '**/tools/**', '**/model/**'],
              message: 'src/storage must not depend on the rooms built on it: a record it persists belongs in src/storage/records/, a port it implements stays with its room.',
            },
          ],
        },
      ],
    },
  },
  {
    // The inert path (src/inert/) is pure like the engine and under the same fence: it works on the engine's
    // records, and the rooms that bring foreign records in (backup, conversation-file, sync) call it, never the reverse.
    files: ['src/inert/**/*.ts'],
    languageOptions: { globals: { ...globals.es2021 } },
    rules: {
      'no-restricted-imports': ['error', engineForbidden],
      'no-restricted-globals': ['error', ...domGlobals.map((name) => ({ name, message: 'The inert path has no DOM.' }))],
    },
  },
  {
    // The worker hosts the engine and the page talks to it; the page's UI sits above both.
    files: ['src/worker/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/ui/**', '*.svelte', '**/*.svelte'], message: 'src/worker must not depend on the UI that uses it.' }] },
      ],
    },
  },
);
