import { z } from 'zod';

/**
 * The authorization server a sign-in used, as its metadata said then. Kept
 * with the tokens: refreshes and Sign out use these endpoints, never the ones
 * a later discovery finds, so a resource server (or a metadata document) that
 * changes its mind cannot send the refresh token or the registration anywhere
 * else. A later discovery that finds anything different means signing in again.
 * Made and checked by src/mcp/oauth/authorization-server-pin.ts.
 */
export const AuthorizationServerPin = z.object({
  /** Where discovery found the authorization server (the protected resource metadata's first entry, or the MCP server's origin). */
  authorizationServerUrl: z.string(),
  /** Where the protected resource metadata was read from, when the server's 401 said; else its well-known URL was used. */
  resourceMetadataUrl: z.string().nullable(),
  /** The MCP server's RFC 9728 metadata, as the SDK parsed it (opaque here: re-parsed by `discoveryStateOf`). */
  resourceMetadata: z.record(z.string(), z.unknown()).nullable(),
  /** The authorization server's RFC 8414 (or OpenID) metadata, as the SDK parsed it. */
  metadata: z.record(z.string(), z.unknown()),
  pinnedAt: z.number(),
});
export type AuthorizationServerPin = z.infer<typeof AuthorizationServerPin>;

/**
 * One server's OAuth state in this browser: the client registration the
 * authorization server gave us, the tokens, and a sign-in in progress (its
 * PKCE verifier and state). A secret like the API key: it stays in the
 * `mcpOAuth` table, which no backup or export reads. The SDK's own schemas
 * check `clientInformation` and `tokens` when they are read back
 * (src/mcp/oauth/stored-oauth-provider.ts); here they are opaque objects.
 */
export const McpOAuthRecord = z.object({
  v: z.literal(1),
  serverId: z.string(),
  /** The callback page's URL the client was registered with; another one means registering again. */
  redirectUrl: z.url({ protocol: /^https?$/ }),
  clientInformation: z.record(z.string(), z.unknown()).nullable(),
  tokens: z.record(z.string(), z.unknown()).nullable(),
  /** When `tokens` were received: with their `expires_in`, when they expire (refreshed before connecting, then). */
  tokensSavedAt: z.number().nullable(),
  /**
   * The authorization server the tokens came from, pinned at sign-in: refreshes and Sign out use it, and a
   * discovery that finds anything else asks for a new sign-in. `null` in rows from before pinning: such
   * tokens are used until they expire, then the user signs in again.
   */
  authorizationServer: AuthorizationServerPin.nullable().default(null),
  /**
   * The scopes the tokens carry: the token response's `scope`, else what the sign-in asked for (RFC 6749 §5.1:
   * an omitted scope is the one requested). A step-up sign-in asks for these again beside the new ones.
   */
  scope: z.string().nullable().default(null),
  /**
   * A sign-in in progress: its `state` (checked when the code comes back, then cleared), PKCE verifier, and
   * the authorization server it started with (the code is exchanged there, and it is pinned with the tokens).
   */
  pending: z
    .object({
      state: z.string().min(16),
      codeVerifier: z.string().nullable(),
      startedAt: z.number(),
      authorizationServer: AuthorizationServerPin.nullable().default(null),
      /** The scope the authorization request asked for (none: the authorization server's default). */
      scope: z.string().nullable().default(null),
    })
    .nullable(),
  updatedAt: z.number(),
});
export type McpOAuthRecord = z.infer<typeof McpOAuthRecord>;
/** A row as stored: one written before a field with a default existed lacks it (read through `McpOAuthRecord`). */
export type StoredMcpOAuthRecord = z.input<typeof McpOAuthRecord>;
