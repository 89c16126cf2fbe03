import type { PausepointDb } from './db.ts';
import type { Note } from './records/note-record.ts';
import { toStorageError } from './storage-error.ts';

/**
 * The notes the agent's notes tools read and write: their port, src/tools/notes-store-port.ts, which storage does
 * not import (tools sit above it); TypeScript checks the fit where src/worker/agent-host.ts hands the store to the
 * tools. Ids come from the store.
 */
export type NotesStore = Pick<DexieNotesStore, 'save' | 'list' | 'get' | 'remove'>;

export interface NotesStoreOptions {
  uuid?: () => string;
  now?: () => number;
}

function newNote({ title, body }: { title: string; body: string }, uuid: () => string, now: () => number): Note {
  const at = now();
  return { v: 1, id: uuid(), title, body, createdAt: at, updatedAt: at };
}

function newestFirst(a: Note, b: Note): number {
  return b.updatedAt - a.updatedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

export class DexieNotesStore {
  readonly #uuid: () => string;
  readonly #now: () => number;

  constructor(
    private readonly db: PausepointDb,
    { uuid = () => crypto.randomUUID(), now = Date.now }: NotesStoreOptions = {},
  ) {
    this.#uuid = uuid;
    this.#now = now;
  }

  async save(note: { title: string; body: string }): Promise<Note> {
    const stored = newNote(note, this.#uuid, this.#now);
    await this.#run(() => this.db.notes.add(stored));
    return stored;
  }

  async list(): Promise<Note[]> {
    const notes = await this.#run(() => this.db.notes.toArray());
    return notes.sort(newestFirst);
  }

  get(id: string): Promise<Note | undefined> {
    return this.#run(() => this.db.notes.get(id));
  }

  /** One delete-by-key that reports how many it removed: no read-then-delete race. */
  async remove(id: string): Promise<boolean> {
    return (await this.#run(() => this.db.notes.where('id').equals(id).delete())) > 0;
  }

  async #run<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      throw toStorageError(error);
    }
  }
}

/** The same store in memory, for Node tests of the notes tools. Returns copies, as IndexedDB does. */
export class MemoryNotesStore implements NotesStore {
  readonly #notes = new Map<string, Note>();
  readonly #uuid: () => string;
  readonly #now: () => number;

  constructor({ uuid = () => crypto.randomUUID(), now = Date.now }: NotesStoreOptions = {}) {
    this.#uuid = uuid;
    this.#now = now;
  }

  async save(note: { title: string; body: string }): Promise<Note> {
    const stored = newNote(note, this.#uuid, this.#now);
    this.#notes.set(stored.id, stored);
    return { ...stored };
  }

  async list(): Promise<Note[]> {
    return [...this.#notes.values()].map((note) => ({ ...note })).sort(newestFirst);
  }

  async get(id: string): Promise<Note | undefined> {
    const note = this.#notes.get(id);
    return note && { ...note };
  }

  async remove(id: string): Promise<boolean> {
    return this.#notes.delete(id);
  }
}
