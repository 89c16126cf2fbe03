import type { PausepointDb } from '../storage/db.ts';
import type { SearchService } from '../search/search-service.ts';
import type { IntentHandlers } from './protocol.ts';
import { WebLocks } from './web-locks.ts';

const NOTHING = { results: [], total: 0 };

/**
 * The worker's conversation search. src/search (MiniSearch, the index and
 * what keeps it) comes in with a dynamic import on the first search, or
 * when the search field is first focused, so a visit that never searches
 * neither loads nor reads the index. The index is stored in IndexedDB and
 * shared by every tab: the first to search builds it, under a Web Lock, and
 * the others read it (search-service.ts).
 */
export class SearchHost {
  #service: Promise<SearchService> | null = null;

  constructor(private readonly db: PausepointDb) {}

  service(): Promise<SearchService> {
    this.#service ??= import('../search/search-service.ts')
      .then(({ SearchService }) => new SearchService(this.db, new WebLocks()))
      .catch((error: unknown) => {
        this.#service = null;
        throw error;
      });
    return this.#service;
  }

  readonly handlers: Pick<IntentHandlers, 'searchConversations'> = {
    searchConversations: async ({ query, limit }) => {
      const service = await this.service();
      if (query.trim() === '') {
        await service.warm();
        return NOTHING;
      }
      return service.search(query, limit);
    },
  };
}
