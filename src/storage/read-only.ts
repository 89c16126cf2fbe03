import type { PausepointDb } from './db.ts';

/** What a read hands back once its transaction has completed. */
export type Collect<T> = () => T;

/** A read made inside another read-only transaction: the stores it needs, and its requests. */
export interface ReadAlongside<T> {
  stores: readonly string[];
  issue: (transaction: IDBTransaction) => Collect<T>;
}

/**
 * One read-only IndexedDB transaction, straight on the database Dexie opened:
 * `issue` makes its requests and returns how to build the answer from their
 * results once the transaction completes.
 *
 * For the engine's per-step reads only. Dexie's machinery around a
 * transaction (its zones and middleware) costs two to three times what these
 * reads themselves do (measured in fake-indexeddb: about 160–250 µs against
 * 80–90 µs for a step's read), and reads in the worker need none of it: no
 * live query runs there. Writes still go through Dexie, which is how the
 * pages' live queries, in every tab, hear of them.
 */
export async function readOnly<T>(db: PausepointDb, stores: readonly string[], issue: (transaction: IDBTransaction) => Collect<T>): Promise<T> {
  // Dexie opens lazily, and reopens after a version change closed its connection.
  if (!db.isOpen()) await db.open();
  const idb = db.backendDB();
  return new Promise<T>((resolve, reject) => {
    const transaction = idb.transaction([...stores], 'readonly');
    const collect = issue(transaction);
    transaction.oncomplete = () => {
      try {
        resolve(collect());
      } catch (error) {
        reject(error);
      }
    };
    transaction.onabort = () => reject(transaction.error ?? new DOMException('The read was aborted.', 'AbortError'));
  });
}
