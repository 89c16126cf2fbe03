import type { McpServerDraft } from '../mcp/mcp-server-record.ts';

/** What Settings › MCP servers asks of the agent; the servers themselves are read from IndexedDB. */
export interface McpControl {
  add(draft: McpServerDraft): Promise<{ serverId: string }>;
  /** Connect (true) or Disconnect (false). */
  setEnabled(serverId: string, enabled: boolean): Promise<void>;
  setTrusted(serverId: string, trusted: boolean): Promise<void>;
  setToolEnabled(serverId: string, toolName: string, enabled: boolean): Promise<void>;
  remove(serverId: string): Promise<void>;
  /** OAuth: the URL to open in the sign-in popup, with its state; `null` when no sign-in is needed (a stored refresh token worked). */
  beginSignIn(serverId: string, redirectUrl: string): Promise<{ authorizationUrl: string; state: string } | null>;
  finishSignIn(serverId: string, code: string, state: string): Promise<void>;
  /** Deletes the tokens; `revoked` says whether the authorization server was asked to revoke them. */
  signOut(serverId: string): Promise<{ revoked: string; reason?: string }>;
}
