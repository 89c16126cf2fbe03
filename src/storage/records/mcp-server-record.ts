import { z } from 'zod';
import { HTTP_TOKEN } from '../../common/http-token.ts';

/**
 * What a server says about a tool's behaviour. Hints only: a server the user
 * has not marked trusted gets no permission from them. Defaults per the MCP
 * spec: not read-only, destructive, not idempotent, open-world.
 */
export const McpToolAnnotations = z
  .object({
    title: z.string().optional(),
    readOnlyHint: z.boolean().optional(),
    destructiveHint: z.boolean().optional(),
    idempotentHint: z.boolean().optional(),
    openWorldHint: z.boolean().optional(),
  })
  .loose();
export type McpToolAnnotations = z.infer<typeof McpToolAnnotations>;

/** A tool as the server defined it in `tools/list`: what is pinned and shown. */
export const McpToolDefinition = z.object({
  name: z.string().min(1),
  title: z.string().optional(),
  description: z.string().default(''),
  inputSchema: z.record(z.string(), z.unknown()),
  outputSchema: z.record(z.string(), z.unknown()).optional(),
  annotations: McpToolAnnotations.optional(),
  /**
   * MCP Apps (issue 36): who may call it, from `_meta.ui.visibility`
   * (tool-visibility.ts); absent: the model and the server's views both. An
   * app-only tool is never offered to the model; a model-only one is refused
   * to a view. Part of the pinned definition: a change of audience is a changed tool.
   */
  visibility: z.array(z.enum(['model', 'app'])).min(1).max(1).optional(),
  /**
   * MCP Apps (issue 36): the `ui://` resource its `_meta` declares for its
   * view (ui-resource.ts), taken from the listing. Only this URI is ever read
   * for the tool's view: a call's result cannot point rendering elsewhere.
   * Part of the pinned definition: a tool whose view moves is a changed tool.
   */
  viewUri: z.string().max(2048).startsWith('ui://').optional(),
});
export type McpToolDefinition = z.infer<typeof McpToolDefinition>;

export const McpToolRecord = z.object({
  definition: McpToolDefinition,
  /** SHA-256 of the definition as the server last listed it. */
  hash: z.string(),
  /**
   * The definition the user has seen run: the first one listed, replaced when
   * the user approves a call of a changed one. While `hash` differs from
   * `pinned.hash`, every call asks and its card shows what changed.
   */
  pinned: z.object({ hash: z.string(), definition: McpToolDefinition, at: z.number() }),
  /** Offered to the model. */
  enabled: z.boolean(),
  /**
   * False once a `tools/list` came without it: the tool is kept, never
   * offered, so that its pin outlives its absence (a tool that leaves and
   * comes back changed is a change, not a new tool). Absent while listed.
   */
  listed: z.literal(false).optional(),
});
export type McpToolRecord = z.infer<typeof McpToolRecord>;

/** How this browser last found the server (written by whichever tab's worker connected last). */
export const McpServerStatus = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('connecting'), since: z.number() }),
  z.object({
    kind: z.literal('connected'),
    at: z.number(),
    transport: z.enum(['streamable_http', 'sse']),
    /** The MCP revision spoken (2026-07-28, or the 2025 one the `initialize` handshake agreed); absent on records from before it was kept. */
    protocol: z.string().max(40).optional(),
  }),
  z.object({
    kind: z.literal('needs_auth'),
    reason: z.string(),
    at: z.number(),
    /** From the 401's WWW-Authenticate (RFC 9728 `resource_metadata`): where Sign in starts its discovery. */
    resourceMetadataUrl: z.url({ protocol: /^https?$/ }).optional(),
    /** The 401's `scope` (RFC 6750): what Sign in asks for, before anything the metadata lists. */
    scope: z.string().max(2_000).optional(),
  }),
  /**
   * A call met a 403 `insufficient_scope`: the sign-in this browser holds does not cover what the server now
   * asks for. Sign in again asks for `scope` (what the 403 named) together with the scopes already held.
   */
  z.object({
    kind: z.literal('needs_scope'),
    reason: z.string(),
    at: z.number(),
    scope: z.string().max(2_000),
    resourceMetadataUrl: z.url({ protocol: /^https?$/ }).optional(),
  }),
  z.object({ kind: z.literal('failed'), reason: z.string(), at: z.number() }),
  z.object({ kind: z.literal('disconnected'), at: z.number() }),
]);
export type McpServerStatus = z.infer<typeof McpServerStatus>;

/** Header names the user may not set: the transport owns them. */
const RESERVED_HEADERS = new Set(['content-type', 'accept', 'mcp-session-id', 'mcp-protocol-version', 'mcp-method', 'mcp-name', 'last-event-id']);

export const McpHeaders = z
  .record(
    z.string().regex(HTTP_TOKEN, 'A header name is letters, digits and -').refine((name) => !RESERVED_HEADERS.has(name.toLowerCase()), 'That header is set by the MCP transport itself'),
    z.string().refine((value) => !/[\r\n]/.test(value), 'A header value must be one line'),
  )
  .default({});

/**
 * One MCP server the user added. `auth` is a secret like the API key: it
 * stays in this table, which no backup or export reads.
 */
export const McpServerRecord = z.object({
  v: z.literal(1),
  id: z.string(),
  url: z.url({ protocol: /^https?$/ }),
  name: z.string().max(80).nullable(),
  /** Put before its tools' names for the model (`prefix__tool`); unique among servers, never changes. */
  prefix: z.string().regex(/^[a-zA-Z0-9_-]{1,24}$/),
  createdAt: z.number(),
  /** Whether the user wants it connected (Connect) or not (Disconnect). */
  enabled: z.boolean(),
  /** The user vouches for its annotations: a read-only tool of a trusted server may run unasked. */
  trusted: z.boolean(),
  auth: z.object({
    bearerToken: z.string().nullable(),
    headers: McpHeaders,
    /** Signed in with OAuth: the tokens themselves are in the `mcpOAuth` table (src/mcp/oauth/), never here. */
    oauth: z.boolean().optional(),
    /** The OAuth client id the authorization server gave the user for Pausepoint (pre-registered): Sign in uses it instead of registering. */
    clientId: z.string().max(1_000).optional(),
  }),
  status: McpServerStatus,
  serverInfo: z.object({ name: z.string(), version: z.string() }).nullable(),
  tools: z.array(McpToolRecord),
  /**
   * `Show interactive views` (MCP Apps, issue 36) turned off: the extension is not advertised to the server
   * and its tools' views are not shown (their text results still are). Absent means on.
   */
  showViews: z.literal(false).optional(),
  /** Why tools of the last `tools/list` are not offered (too many, too large, two of one name), a sentence each, for Settings (screen-listing.ts). */
  refusals: z.array(z.string()).optional(),
});
export type McpServerRecord = z.infer<typeof McpServerRecord>;

/** Two statuses say the same to the user: only their times differ (a server still connecting is the same at any time). */
export function sameStatus(a: McpServerStatus, b: McpServerStatus): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'connecting') return true;
  if (a.kind === 'connected' && b.kind === 'connected') return a.transport === b.transport && a.protocol === b.protocol;
  return JSON.stringify({ ...a, at: 0 }) === JSON.stringify({ ...b, at: 0 });
}
