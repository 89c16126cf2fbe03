import type { ToolDefinition } from '../engine/tool-definition.ts';
import { createDeleteNoteTool } from './delete-note.ts';
import { createListNotesTool } from './list-notes.ts';
import type { NotesStorePort } from './notes-store-port.ts';
import { createSaveNoteTool } from './save-note.ts';

/** The three notes tools over one store. */
export function createNotesTools(store: NotesStorePort): ToolDefinition[] {
  return [createSaveNoteTool(store), createListNotesTool(store), createDeleteNoteTool(store)];
}
