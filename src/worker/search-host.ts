import type { PausepointDb } from '../storage/db.ts';
import type { SearchService } from '../search/search-service.ts';
import type { IntentHandlers } from './protocol.ts';

const NOTHING = { results: [], total: 0 };

/**
 * The worker's conversation search. src/search (MiniSearch, the index and
 * what keeps it) comes in with a dynamic import on the first search, or
 * when the search field is first focused, so a visit that never searches
 * neither loads it nor builds the index. Each worker keeps its own index in
 * memory, built from the stored records and kept from their changes
 * (search-service.ts).
 */
export class SearchHost {
  #service: Promise<SearchService> | null = null;

  constructor(private readonly db: PausepointDb) {}

  service(): Promise<SearchService> {
    this.#service ??= import('../search/search-service.ts')
      .then(({ SearchService }) => new SearchService(this.db))
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
