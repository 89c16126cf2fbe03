import { liveQuery } from 'dexie';
import type { ToolDefinition } from '../engine/ports.ts';
import type { McpHub } from '../mcp/mcp-hub.ts';
import type { PausepointDb } from '../storage/db.ts';
import type { McpIntent } from './protocol.ts';

const NONE: readonly ToolDefinition[] = Object.freeze([]);

/**
 * The worker's MCP side, loaded only when needed: the SDK and the hub come
 * in with a dynamic import the first time a server exists (stored, added
 * here, or added in another tab). `tools` is what the engine reads per step.
 */
export class McpHost {
  #hub: Promise<McpHub> | null = null;
  #loaded: McpHub | null = null;
  /** Settles once the stored servers' tools are known (or there are none): runs wait for it. */
  readonly ready: Promise<void>;

  constructor(
    private readonly db: PausepointDb,
    private readonly reserved: ReadonlySet<string>,
  ) {
    this.ready = db.mcpServers
      .count()
      .then(async (count) => {
        if (count > 0) await this.hub();
      })
      .catch((error: unknown) => console.error('Pausepoint: loading the MCP servers failed', error));
    // A server added in another tab: this tab loads the hub and connects too.
    liveQuery(() => db.mcpServers.count()).subscribe({
      next: (count) => void (count > 0 && this.hub().catch(() => undefined)),
      error: (error: unknown) => console.error('Pausepoint: watching the MCP servers failed', error),
    });
  }

  readonly tools = (): readonly ToolDefinition[] => this.#loaded?.tools() ?? NONE;

  hub(): Promise<McpHub> {
    this.#hub ??= import('../mcp/create-hub.ts')
      .then(({ createHub }) => createHub(this.db, this.reserved))
      .then((hub) => (this.#loaded = hub))
      .catch((error: unknown) => {
        this.#hub = null;
        throw error;
      });
    return this.#hub;
  }

  async handle(intent: McpIntent): Promise<unknown> {
    const hub = await this.hub();
    switch (intent.type) {
      case 'mcpAdd': {
        const { type: _type, ...draft } = intent;
        return { serverId: (await hub.add(draft)).id };
      }
      case 'mcpSetEnabled':
        return hub.setEnabled(intent.serverId, intent.enabled);
      case 'mcpSetTrusted':
        return hub.setTrusted(intent.serverId, intent.trusted);
      case 'mcpSetToolEnabled':
        return hub.setToolEnabled(intent.serverId, intent.toolName, intent.enabled);
      case 'mcpRemove':
        return hub.remove(intent.serverId);
      case 'mcpSignInStart':
        // The authorization server sends the code to this URL: it must be this app's own callback page.
        if (new URL(intent.redirectUrl).origin !== globalThis.location.origin) throw new Error('The sign-in callback must be on this app’s origin.');
        return hub.beginSignIn(intent.serverId, intent.redirectUrl);
      case 'mcpSignInFinish':
        return hub.finishSignIn(intent.serverId, intent.code, intent.state);
      case 'mcpSignOut':
        return hub.signOut(intent.serverId);
    }
  }
}
