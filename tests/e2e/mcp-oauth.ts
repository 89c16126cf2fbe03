import { fileURLToPath } from 'node:url';
import { startLoopbackProcess, stopLoopbackProcess } from './loopback-process.ts';

/**
 * The loopback MCP server behind OAuth (mcp-oauth-server.mjs: the SDK's
 * authorization server router, bearer middleware and demo provider), run as
 * its own process like server-everything.
 */
export interface OAuthServer {
  port: number;
  /** The protected MCP endpoint. */
  url: string;
  /** Makes every access token it issued expired: the next request needs a refresh. */
  expireTokens(): Promise<void>;
  /** What happened: sign-ins, refreshes, revocations, calls, and each request to /token, /register and /revoke with its host. */
  log(): Promise<{ event: string; [key: string]: unknown }[]>;
  /** How it behaves from now on (replaced whole; `{}` is as it started): see `config` in mcp-oauth-server.mjs. */
  configure(config: OAuthServerConfig): Promise<void>;
  close(): Promise<void>;
}

export interface OAuthServerConfig {
  /** Laid over its RFC 8414 metadata; `null` removes a field. */
  metadata?: Record<string, unknown>;
  /** The callback's RFC 9207 `iss`: `'issuer'` for its own, another string sent as is. */
  iss?: string;
  /** Client ID Metadata Documents by URL, as it would have fetched them. */
  clientDocuments?: Record<string, object>;
  /** Clients registered by hand. */
  clients?: { client_id: string; redirect_uris: string[] }[];
  /** Scopes every MCP request needs: named in the 401's WWW-Authenticate; a token without them gets 403 insufficient_scope. */
  requiredScopes?: string[];
  /** A further scope each named tool's calls need: a 403 insufficient_scope naming it otherwise (a step-up). */
  toolScopes?: Record<string, string>;
}

const ENTRY = fileURLToPath(new URL('./mcp-oauth-server.mjs', import.meta.url));

export async function startOAuthServer(port: number): Promise<OAuthServer> {
  const child = await startLoopbackProcess(ENTRY, port, '/.well-known/oauth-authorization-server');
  const base = `http://localhost:${port}`;
  return {
    port,
    url: `${base}/mcp`,
    expireTokens: async () => void (await fetch(`${base}/test/expire`, { method: 'POST' })),
    log: async () => (await fetch(`${base}/test/log`)).json(),
    configure: async (config) => {
      const response = await fetch(`${base}/test/config`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(config) });
      if (!response.ok) throw new Error(`mcp-oauth-server refused the config: HTTP ${response.status}`);
    },
    close: () => stopLoopbackProcess(child),
  };
}
