import { z } from 'zod';

/**
 * A note as it is stored (src/storage/db.ts), handed to the notes tools
 * (src/tools/notes-store-port.ts) and carried in backups (src/backup). The one
 * definition of its shape: every other place takes its type from here.
 */
export const NoteRecord = z.object({
  v: z.literal(1),
  id: z.string(),
  title: z.string(),
  body: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type Note = z.infer<typeof NoteRecord>;
