import Dexie from 'dexie';
import { afterEach, beforeEach } from 'vitest';
import { PausepointDb } from '../db.ts';

/**
 * A fresh database under a name no other test uses, and its removal. Tests call
 * this after `import 'fake-indexeddb/auto'`; the app never imports it.
 */
export async function openTestDb(): Promise<{ db: PausepointDb; cleanup(): Promise<void> }> {
  const name = `pausepoint-test-${crypto.randomUUID()}`;
  const db = new PausepointDb(name);
  await db.open();
  return {
    db,
    async cleanup() {
      db.close();
      await Dexie.delete(name);
    },
  };
}

/**
 * A fresh database for each test of the file (or `describe` block) that calls
 * it, removed after the test: `let db; useTestDb((fresh) => (db = fresh));`.
 * Hooks registered after it run with the database open.
 */
export function useTestDb(onOpen: (db: PausepointDb) => void): void {
  let cleanup: (() => Promise<void>) | undefined;
  beforeEach(async () => {
    const opened = await openTestDb();
    cleanup = opened.cleanup;
    onOpen(opened.db);
  });
  afterEach(async () => {
    await cleanup?.();
    cleanup = undefined;
  });
}
