import type { IndexableType, Table } from 'dexie';

/**
 * A table's rows a page of `size` at a time, in primary-key order: keyset paging, each page read
 * after the last key of the one before, never at an offset (an offset walks every row it skips).
 * Ends after the first page that is not full.
 */
export async function* keysetPages<T extends { id: K }, K extends IndexableType, I>(table: Table<T, K, I>, size: number): AsyncGenerator<T[]> {
  let last: K | undefined;
  for (;;) {
    const page = await (last === undefined ? table.orderBy(':id') : table.where(':id').above(last)).limit(size).toArray();
    if (page.length > 0) yield page;
    if (page.length < size) return;
    last = page[page.length - 1]!.id;
  }
}
