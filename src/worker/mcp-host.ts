import { liveQuery } from 'dexie';
import { ledgerId } from '../engine/records/index.ts';
import type { ToolDefinition } from '../engine/tool-definition.ts';
import type { McpHub } from '../mcp/mcp-hub.ts';
import type { PausepointDb } from '../storage/db.ts';
import type { IntentHandlers, McpIntent } from './protocol.ts';
import { samplerOver } from './sampler.ts';

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
      .then(({ createHub }) => createHub(this.db, this.reserved, samplerOver(this.db)))
      .then((hub) => (this.#loaded = hub))
      .catch((error: unknown) => {
        this.#hub = null;
        throw error;
      });
    return this.#hub;
  }

  /** The MCP intents' handlers; each loads the hub first. */
  readonly handlers: Pick<IntentHandlers, McpIntent['type']> = {
    mcpAdd: async ({ type: _type, ...draft }) => ({ serverId: (await (await this.hub()).add(draft)).id }),
    mcpSetEnabled: async ({ serverId, enabled }) => (await this.hub()).setEnabled(serverId, enabled),
    mcpSetTrusted: async ({ serverId, trusted }) => (await this.hub()).setTrusted(serverId, trusted),
    mcpSetToolEnabled: async ({ serverId, toolName, enabled }) => (await this.hub()).setToolEnabled(serverId, toolName, enabled),
    mcpRemove: async ({ serverId }) => (await this.hub()).remove(serverId),
    mcpBeginSignIn: async ({ serverId, redirectUrl }) => {
      // The authorization server sends the code to this URL: it must be this app's own callback page.
      if (new URL(redirectUrl).origin !== globalThis.location.origin) throw new Error('The sign-in callback must be on this app’s origin.');
      return (await this.hub()).beginSignIn(serverId, redirectUrl);
    },
    mcpFinishSignIn: async ({ serverId, code, state, iss }) => (await this.hub()).finishSignIn(serverId, code, state, iss),
    mcpSignOut: async ({ serverId }) => (await this.hub()).signOut(serverId),
    mcpCancelTask: async ({ conversationId, toolCallId }) => {
      const entry = await this.db.ledger.get(ledgerId(conversationId, toolCallId));
      // Only a call still running as a task: a finished one has nothing to cancel.
      if (entry?.status !== 'started' || !entry.task) throw new Error('That call is not running as a task any more.');
      await (await this.hub()).tools().find((tool) => tool.name === entry.toolName)?.cancelTask?.(entry.task.id);
    },
    mcpSetShowViews: async ({ serverId, on }) => (await this.hub()).setShowViews(serverId, on),
    mcpReadView: async ({ serverId, resourceUri }) => (await this.hub()).readView(serverId, resourceUri, AbortSignal.timeout(30_000)),
  };
}
