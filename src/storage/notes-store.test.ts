import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DexieNotesStore, MemoryNotesStore, type NotesStore, type NotesStoreOptions } from './notes-store.ts';
import { openTestDb } from './testing/open-test-db.ts';

const makers: [string, (options: NotesStoreOptions) => Promise<{ store: NotesStore; cleanup(): Promise<void> }>][] = [
  ['MemoryNotesStore', async (options) => ({ store: new MemoryNotesStore(options), cleanup: async () => {} })],
  [
    'DexieNotesStore',
    async (options) => {
      const { db, cleanup } = await openTestDb();
      return { store: new DexieNotesStore(db, options), cleanup };
    },
  ],
];

describe.each(makers)('%s', (_name, make) => {
  let store: NotesStore;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    let n = 0;
    let clock = 1_000;
    ({ store, cleanup } = await make({ uuid: () => `note-${++n}`, now: () => (clock += 10) }));
  });
  afterEach(async () => {
    await cleanup();
  });

  it('saves a note with a new id and reads it back', async () => {
    const saved = await store.save({ title: 'Groceries', body: 'milk, eggs' });
    expect(saved).toEqual({ v: 1, id: 'note-1', title: 'Groceries', body: 'milk, eggs', createdAt: 1_010, updatedAt: 1_010 });
    expect(await store.get('note-1')).toEqual(saved);
    expect(await store.get('nope')).toBeUndefined();
  });

  it('lists newest first', async () => {
    await store.save({ title: 'first', body: '' });
    await store.save({ title: 'second', body: '' });
    expect((await store.list()).map((n) => n.title)).toEqual(['second', 'first']);
  });

  it('removes a note and says whether it existed', async () => {
    await store.save({ title: 'x', body: 'y' });
    expect(await store.remove('note-1')).toBe(true);
    expect(await store.remove('note-1')).toBe(false);
    expect(await store.list()).toEqual([]);
  });

  it('returns copies', async () => {
    const saved = await store.save({ title: 'x', body: 'y' });
    saved.title = 'mutated';
    const [listed] = await store.list();
    listed!.body = 'mutated';
    expect(await store.get('note-1')).toMatchObject({ title: 'x', body: 'y' });
  });
});
