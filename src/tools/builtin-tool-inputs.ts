import type { z } from 'zod';
import { DeleteNoteInput } from './delete-note.ts';
import { HttpRequestInput } from './http-request.ts';
import { ListNotesInput } from './list-notes.ts';
import { SaveNoteInput } from './save-note.ts';

/**
 * The input schema of each tool the app builds in, by name, for code that must
 * know a call's arguments as the tool reads them without the tool itself: a
 * restore checks that a card shows the arguments its call runs with
 * (src/backup/record-link-problem.ts), and these schemas normalise (a URL
 * gains its trailing slash, an id loses its spaces). A test keeps it equal to
 * the tools the worker registers. MCP tools are not here: their input is the
 * call's object as it came.
 */
export const BUILTIN_TOOL_INPUTS: ReadonlyMap<string, z.ZodType> = new Map<string, z.ZodType>([
  ['http_request', HttpRequestInput],
  ['save_note', SaveNoteInput],
  ['list_notes', ListNotesInput],
  ['delete_note', DeleteNoteInput],
]);
