import type { McpServerDraft } from '../mcp/mcp-server-record.ts';

/** What Settings › MCP servers asks of the agent; the servers themselves are read from IndexedDB. */
export interface McpControl {
  add(draft: McpServerDraft): Promise<{ serverId: string }>;
  /** Connect (true) or Disconnect (false). */
  setEnabled(serverId: string, enabled: boolean): Promise<void>;
  setTrusted(serverId: string, trusted: boolean): Promise<void>;
  setToolEnabled(serverId: string, toolName: string, enabled: boolean): Promise<void>;
  remove(serverId: string): Promise<void>;
}
