import type { McpServerStatus } from '../../storage/records/mcp-server-record.ts';

/** A server's status in words, and the tone it is shown in. */
export function statusText(status: McpServerStatus, enabled: boolean): { text: string; tone: 'ok' | 'busy' | 'warn' | 'error' | 'off' } {
  if (!enabled) return { text: 'Disconnected', tone: 'off' };
  switch (status.kind) {
    case 'connecting':
      return { text: 'Connecting…', tone: 'busy' };
    case 'connected':
      return { text: `Connected (${status.transport === 'sse' ? 'legacy SSE' : 'Streamable HTTP'}${status.protocol ? `, MCP ${status.protocol}` : ''})`, tone: 'ok' };
    case 'needs_auth':
      return { text: `Needs sign-in: ${status.reason}`, tone: 'warn' };
    case 'needs_scope':
      return { text: `Needs more access: ${status.reason}`, tone: 'warn' };
    case 'failed':
      return { text: `Failed: ${status.reason}`, tone: 'error' };
    case 'disconnected':
      return { text: 'Disconnected', tone: 'off' };
  }
}
