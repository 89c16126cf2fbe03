import { SearchResults } from '../search/search-result.ts';
import type { IntentCall, SendIntent } from './agent-client.ts';
import { AgentError } from './agent-error.ts';

/**
 * The page's `searchConversations`, its answer read with its zod schema.
 * Loaded by WorkerClient on the first search, with zod and the schema, so
 * start-up pays for neither.
 */
export function searchCall(send: SendIntent): IntentCall<'searchConversations'> {
  return async (query, limit, signal) => {
    const parsed = SearchResults.safeParse(await send({ type: 'searchConversations', query, limit }, signal));
    if (!parsed.success) throw new AgentError('ProtocolError', 'The agent worker answered a search with something unreadable.');
    return parsed.data;
  };
}
