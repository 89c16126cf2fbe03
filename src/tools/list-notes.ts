import { z } from 'zod';
import type { ToolDefinition } from '../engine/tool-definition.ts';
import type { NotesStorePort } from './notes-store-port.ts';

export const ListNotesInput = z.object({});

/** Enough for the model to pick a note; more would crowd its context. */
const MAX_LISTED = 100;

export function createListNotesTool(store: NotesStorePort): ToolDefinition<typeof ListNotesInput> {
  return {
    name: 'list_notes',
    description: 'List the saved notes, newest first: id, title and when each was created and last changed. Bodies are not included.',
    input: ListNotesInput,
    risk: () => 'reads',
    async execute() {
      const notes = await store.list();
      if (notes.length === 0) return 'There are no saved notes.';
      const newest = [...notes].sort((a, b) => b.updatedAt - a.updatedAt).slice(0, MAX_LISTED);
      return JSON.stringify({
        count: notes.length,
        ...(notes.length > newest.length ? { shown: newest.length } : {}),
        notes: newest.map((note) => ({
          id: note.id,
          title: note.title,
          created: new Date(note.createdAt).toISOString(),
          updated: new Date(note.updatedAt).toISOString(),
        })),
      });
    },
  };
}
