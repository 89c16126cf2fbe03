import type { InertConversation } from '../inert/index.ts';
import type { PausepointDb } from '../storage/db.ts';
import { toStorageError } from '../storage/storage-error.ts';
import type { ImportedConversation } from './imported-conversation.ts';

/** Where an import writes its batches. */
export interface ImportSink {
  /**
   * Writes whole conversations, all or none of them: `admit` makes each one
   * inert, told whether its id is already used here (it then gets a new one).
   */
  write(batch: readonly ImportedConversation[], admit: (imported: ImportedConversation, taken: boolean) => InertConversation): Promise<void>;
}

/** The app's database: one transaction per batch, so what an import leaves is whole conversations only. */
export class DexieImportSink implements ImportSink {
  constructor(private readonly db: PausepointDb) {}

  async write(batch: readonly ImportedConversation[], admit: (imported: ImportedConversation, taken: boolean) => InertConversation): Promise<void> {
    const { db } = this;
    await db
      .transaction('rw', db.conversations, db.messages, db.pausePoints, async () => {
        const here = await db.conversations.bulkGet(batch.map((c) => c.conversation.id));
        const written = batch.map((imported, i) => admit(imported, here[i] !== undefined));
        await db.conversations.bulkAdd(written.map((c) => c.conversation));
        await db.messages.bulkAdd(written.flatMap((c) => c.messages));
        await db.pausePoints.bulkAdd(written.flatMap((c) => c.pausePoints));
      })
      .catch((error: unknown) => {
        throw toStorageError(error);
      });
  }
}
