import type { Note } from '../storage/records/note-record.ts';

/**
 * What the notes tools need from storage. Declared here, and implemented by
 * src/storage/notes-store.ts without importing it (storage sits below tools;
 * TypeScript checks the fit where src/worker/agent-host.ts hands it to the
 * tools), so the tools' tests run against a plain in-memory map.
 */
export interface NotesStorePort {
  save(note: { title: string; body: string }): Promise<Note>;
  /** Every note; the tools sort and cut the list themselves. */
  list(): Promise<Note[]>;
  get(id: string): Promise<Note | undefined>;
  /** False when there was no such note. */
  remove(id: string): Promise<boolean>;
}
