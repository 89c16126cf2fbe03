import { z } from 'zod';
import type { ToolDefinition } from '../engine/tool-definition.ts';
import type { NotesStorePort } from './notes-store-port.ts';

export const DeleteNoteInput = z.object({
  id: z.string().trim().min(1).max(200).describe('The id of the note to delete, as given by list_notes.'),
});

/**
 * Deleting is irreversible, so every call is gated. The gate sees only the
 * arguments (it must stay synchronous and side-effect free), which is why the
 * question names the note by id rather than by title.
 */
export function createDeleteNoteTool(store: NotesStorePort): ToolDefinition<typeof DeleteNoteInput> {
  return {
    name: 'delete_note',
    description: 'Delete one saved note by id. The user is asked to approve every deletion. Call list_notes first to find the id.',
    input: DeleteNoteInput,
    gate: ({ id }) => ({
      title: `Delete note “${id}”?`,
      description: `The note with id \`${id}\` will be deleted from this browser. **This cannot be undone.**`,
    }),
    irreversible: () => true,
    risk: () => 'destructive',
    async execute({ id }) {
      const note = await store.get(id);
      if (!note || !(await store.remove(id))) {
        throw new Error(`There is no note with id "${id}". Call list_notes to see the ids.`);
      }
      return `Deleted note “${note.title}” (id ${id}).`;
    },
  };
}
