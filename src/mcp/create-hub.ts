import type { PausepointDb } from '../storage/db.ts';
import { DexieOAuthStore } from '../storage/mcp-oauth-repo.ts';
import { DexieMcpServerStore } from '../storage/mcp-servers-repo.ts';
import { McpHub } from './mcp-hub.ts';
import { McpOAuth } from './oauth/mcp-oauth.ts';
import { openHttpSession } from './open-http-session.ts';
import type { Sampler } from './server-requests.ts';
import { viewsUnavailable } from './sandbox-origin.ts';

/**
 * The worker's MCP hub over the app's database and real HTTP. The one module
 * the worker imports lazily (`import()`): the SDK and everything MCP come
 * with it, so a tab that has no MCP server never loads them.
 */
export async function createHub(db: PausepointDb, reserved: ReadonlySet<string>, sample: Sampler): Promise<McpHub> {
  const oauth = new McpOAuth(new DexieOAuthStore(db));
  const hub = new McpHub({
    store: new DexieMcpServerStore(db),
    oauth,
    open: async (server, events) =>
      openHttpSession(
        {
          url: server.url,
          headers: server.auth.headers,
          bearerToken: server.auth.bearerToken,
          authProvider: await oauth.connectionProvider(server),
          views: server.showViews !== false && viewsUnavailable(globalThis.location.origin) === null,
        },
        events,
      ),
    newId: () => crypto.randomUUID(),
    reserved,
    sample,
  });
  await hub.start();
  return hub;
}
