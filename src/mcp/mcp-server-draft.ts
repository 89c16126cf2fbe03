import { z } from 'zod';
import { plainHttpAllowed } from '../storage/endpoint-origin.ts';
import { McpHeaders, McpServerRecord } from '../storage/records/mcp-server-record.ts';
import { PLAIN_HTTP_MCP_REFUSED } from './plain-http-refused.ts';

/** What the user enters to add a server (the worker's `mcpAdd` intent). */
export const McpServerDraft = z.object({
  url: McpServerRecord.shape.url.refine(plainHttpAllowed, PLAIN_HTTP_MCP_REFUSED),
  name: z.string().trim().max(80).optional(),
  bearerToken: z.string().trim().max(8_000).optional(),
  headers: McpHeaders.optional(),
  clientId: z.string().trim().max(1_000).optional(),
});
export type McpServerDraft = z.infer<typeof McpServerDraft>;

/** A server just added: enabled, not trusted, connecting, its tools not yet listed. */
export function newServerRecord(draft: McpServerDraft, { id, prefix, now }: { id: string; prefix: string; now: number }): McpServerRecord {
  return {
    v: 1,
    id,
    url: draft.url,
    name: draft.name?.trim() || null,
    prefix,
    createdAt: now,
    enabled: true,
    trusted: false,
    auth: { bearerToken: draft.bearerToken?.trim() || null, headers: draft.headers ?? {}, ...(draft.clientId?.trim() ? { clientId: draft.clientId.trim() } : {}) },
    status: { kind: 'connecting', since: now },
    serverInfo: null,
    tools: [],
  };
}
