import type { SearchResults } from '../../search/search-result.ts';
import type { AgentClient } from '../../worker/agent-client.ts';

/** Conversations shown per search: more than a sidebar shows at once; refining the query finds the rest. */
export const SEARCH_LIMIT = 50;

/**
 * The sidebar's search as reactive state: the worker's results for the
 * query as typed, asked once typing pauses for `delay` ms; a query typed
 * over an earlier one aborts that one's call, so results never arrive out
 * of order. Create it while a component initialises (its work lives in an
 * effect and ends with its owner).
 */
export class ConversationSearch {
  #found: SearchResults | null = $state.raw(null);
  #error = $state('');

  constructor(client: Pick<AgentClient, 'searchConversations'>, query: () => string, { delay = 100 }: { delay?: number } = {}) {
    $effect(() => {
      const typed = query().trim();
      if (!typed) {
        this.#found = null;
        return;
      }
      const controller = new AbortController();
      const timer = setTimeout(() => {
        client.searchConversations(typed, SEARCH_LIMIT, controller.signal).then(
          (found) => {
            this.#found = found;
            this.#error = '';
          },
          (error: unknown) => {
            // Aborted: a newer query took over, and its answer is the one that counts.
            if (controller.signal.aborted) return;
            this.#error = `Search failed: ${error instanceof Error ? error.message : String(error)}`;
          },
        );
      }, delay);
      return () => {
        clearTimeout(timer);
        controller.abort();
      };
    });
  }

  /** The latest answer; null before the first arrives (or with no query). */
  get found(): SearchResults | null {
    return this.#found;
  }

  get error(): string {
    return this.#error;
  }
}
