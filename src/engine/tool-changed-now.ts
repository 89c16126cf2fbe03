import type { PausePoint } from './records/index.ts';
import type { ToolDefinition } from './tool-definition.ts';

/**
 * Whether a card's MCP tool, as the engine would run it now (`tool`: the
 * registry's tool of that name), is not the one the card was made for: gone,
 * another server's or tool's, another definition, or one whose listing
 * differs from its pin. The page and the service worker read the same from
 * the stored servers (src/mcp/listed-tool-changed.ts); both feed the decision
 * view (decision-view.ts), so a change between the card and the decision
 * changes the view's hash. A built-in tool changes only with the app, and a
 * run checks that itself (changed-since-card.ts).
 */
export function toolChangedNow(pause: PausePoint, tool: ToolDefinition | undefined): boolean {
  const card = pause.mcp;
  if (!card) return false;
  const now = tool?.mcp;
  return (
    !now ||
    now.serverId !== card.serverId ||
    now.toolName !== card.toolName ||
    now.definitionHash !== card.definitionHash ||
    tool?.definitionChanged === true
  );
}
