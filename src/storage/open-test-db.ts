import Dexie from 'dexie';
import { PausepointDb } from './db.ts';

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
