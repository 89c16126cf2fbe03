import type { PausePoint } from '../engine/records/index.ts';
import type { McpServerRecord } from '../storage/records/mcp-server-record.ts';

/**
 * The stored servers' side of the engine's `toolChangedNow`: whether a card's
 * MCP tool is, by the stored records, not the one the card was made for —
 * its server or tool gone, switched off or unlisted (the engine offers no
 * such tool), listed with another definition than its pin (mcp-tool.ts's
 * `definitionChanged`) or than the card's. Read by the page's card and the
 * service worker's notification to build the decision view; types only, so
 * neither loads the MCP code for it.
 */
export function listedToolChanged(pause: PausePoint, servers: readonly McpServerRecord[]): boolean {
  const card = pause.mcp;
  if (!card) return false;
  const server = servers.find((s) => s.id === card.serverId);
  const tool = server?.tools.find((t) => t.definition.name === card.toolName);
  return !server || !server.enabled || !tool || !tool.enabled || tool.listed === false || tool.hash !== tool.pinned.hash || tool.hash !== card.definitionHash;
}
