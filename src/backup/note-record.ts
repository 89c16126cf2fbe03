import { z } from 'zod';
import type { Note } from '../storage/db.ts';

/**
 * A stored note (src/storage/db.ts `Note`) as a zod schema, for backups. The
 * `satisfies` keeps the two in step: a field added to `Note` and not here fails
 * the type check.
 */
export const NoteRecord = z.object({
  v: z.literal(1),
  id: z.string(),
  title: z.string(),
  body: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
}) satisfies z.ZodType<Note>;
export type NoteRecord = z.infer<typeof NoteRecord>;
