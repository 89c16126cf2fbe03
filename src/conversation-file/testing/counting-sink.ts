import type { InertConversation } from '../../inert/index.ts';
import type { ImportSink } from '../dexie-import-sink.ts';
import type { ImportedConversation } from '../imported-conversation.ts';

/**
 * A sink that makes every conversation inert, as the database's does, then
 * keeps only counts: for tests of what an import holds in memory, where an
 * in-memory database would hold the file itself.
 */
export class CountingSink implements ImportSink {
  conversations = 0;
  messages = 0;
  batches = 0;

  async write(batch: readonly ImportedConversation[], admit: (imported: ImportedConversation, taken: boolean) => InertConversation): Promise<void> {
    for (const imported of batch) {
      const inert = admit(imported, false);
      this.conversations++;
      this.messages += inert.messages.length;
    }
    this.batches++;
    // As a database write would, let other work run before the import goes on.
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}
