import * as fake from 'fake-indexeddb';

/**
 * A setup file of the UI tests (vite.config.ts). `import 'fake-indexeddb/auto'` puts IndexedDB on the global
 * when it is first evaluated; the UI test files share their worker's modules, so it is evaluated once per
 * worker, while each file gets a new jsdom window, which would then have none. Each file's window gets it
 * here. The factory is shared, as the modules are: tests open databases under names of their own
 * (src/storage/testing/open-test-db.ts).
 */
const { default: _factory, forceCloseDatabase: _close, ...globals } = fake;
for (const [name, value] of Object.entries(globals)) {
  Object.defineProperty(globalThis, name, { value, enumerable: false, configurable: true, writable: true });
}
