import { z } from 'zod';
import type { ToolDefinition } from '../engine/tool-definition.ts';
import type { NotesStorePort } from './notes-store-port.ts';

export const SaveNoteInput = z.object({
  title: z.string().trim().min(1).max(200).describe('A short title for the note, at most 200 characters.'),
  body: z.string().max(20_000).describe('The text of the note (markdown allowed), at most 20,000 characters.'),
});

/** Saving a note only touches this browser and can be undone by deleting it: no gate. */
export function createSaveNoteTool(store: NotesStorePort): ToolDefinition<typeof SaveNoteInput> {
  return {
    name: 'save_note',
    description: 'Save a note in this browser for the user to keep. Returns the new note id.',
    input: SaveNoteInput,
    risk: () => 'changes',
    async execute({ title, body }) {
      const note = await store.save({ title, body });
      return `Saved note “${note.title}” with id ${note.id}.`;
    },
  };
}
