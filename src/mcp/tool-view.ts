import type { CallToolResult } from '@modelcontextprotocol/client';
import { MAX_TOOL_VIEW_JSON, type ToolView } from '../engine/records/index.ts';
import type { McpServerRecord, McpToolDefinition } from '../storage/records/mcp-server-record.ts';

/**
 * What a call's view is rendered from (issue 36), or null: its tool declares
 * no view, the person turned `Show interactive views` off for the server, or
 * the arguments or result are too large to keep (the text result still is).
 * The resource is the one the definition the call ran declared, never one
 * the result names.
 */
export function toolView(server: McpServerRecord, definition: McpToolDefinition, args: Record<string, unknown>, result: CallToolResult): ToolView | null {
  if (!definition.viewUri || server.showViews === false) return null;
  const input = JSON.stringify(args);
  const output = JSON.stringify(result);
  if (input.length > MAX_TOOL_VIEW_JSON || output.length > MAX_TOOL_VIEW_JSON) return null;
  return { serverId: server.id, resourceUri: definition.viewUri, input, result: output };
}
