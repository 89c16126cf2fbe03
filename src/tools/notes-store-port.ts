/**
 * What the notes tools need from storage. Declared here, structurally equal
 * to `NotesStore` in src/storage/notes-store.ts, so tools never import storage
 * code and their tests run against a plain in-memory map.
 */
export interface StoredNote {
  v: 1;
  id: string;
  title: string;
  body: string;
  createdAt: number;
  updatedAt: number;
}

export interface NotesStorePort {
  save(note: { title: string; body: string }): Promise<StoredNote>;
  /** Every note; the tools sort and cut the list themselves. */
  list(): Promise<StoredNote[]>;
  get(id: string): Promise<StoredNote | undefined>;
  /** False when there was no such note. */
  remove(id: string): Promise<boolean>;
}
