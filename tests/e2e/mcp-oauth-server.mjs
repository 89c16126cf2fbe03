// A loopback MCP server behind OAuth 2.1, built only from the MCP SDK's own
// server-side pieces: its authorization server router (mcpAuthRouter:
// RFC 8414 and RFC 9728 metadata, dynamic client registration, /authorize,
// /token with PKCE, /revoke), its bearer-token middleware, and its in-memory
// demo provider (which approves every sign-in at once, as a signed-in user
// would), extended with refresh tokens and revocation. Run as its own process
// by mcp-oauth.ts: PORT=… node tests/e2e/mcp-oauth-server.mjs
//
// Test hooks, outside OAuth: POST /test/expire makes every access token
// expired (the next request gets a 401, the client must refresh);
// GET /test/log lists what happened (sign-ins, refreshes, revocations, calls).
import cors from 'cors';
import express from 'express';
import { randomUUID } from 'node:crypto';
import { DemoInMemoryAuthProvider } from '@modelcontextprotocol/sdk/examples/server/demoInMemoryOAuthProvider.js';
import { InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { getOAuthProtectedResourceMetadataUrl, mcpAuthRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import * as z from 'zod/v4';

const port = Number(process.env.PORT);
const base = new URL(`http://localhost:${port}/`);
const mcpUrl = new URL('/mcp', base);
const log = [];

/** The SDK's demo provider, plus what it leaves out: refresh tokens and revocation (RFC 7009). */
class Provider extends DemoInMemoryAuthProvider {
  refreshTokens = new Map();

  #issue(clientId, scopes, resource) {
    const access = randomUUID();
    const refresh = randomUUID();
    this.tokens.set(access, { token: access, clientId, scopes, expiresAt: Date.now() + 3_600_000, resource, type: 'access' });
    this.refreshTokens.set(refresh, { clientId, scopes, resource });
    return { access_token: access, token_type: 'bearer', expires_in: 3600, refresh_token: refresh, scope: scopes.join(' ') };
  }

  async exchangeAuthorizationCode(client, code, verifier) {
    const data = this.codes.get(code);
    const tokens = await super.exchangeAuthorizationCode(client, code, verifier);
    this.tokens.delete(tokens.access_token);
    log.push({ event: 'sign_in', clientId: client.client_id, resource: data?.params.resource?.href ?? null });
    return this.#issue(client.client_id, data?.params.scopes ?? [], data?.params.resource);
  }

  async exchangeRefreshToken(client, refreshToken) {
    const data = this.refreshTokens.get(refreshToken);
    if (!data || data.clientId !== client.client_id) throw new Error('Invalid refresh token');
    this.refreshTokens.delete(refreshToken);
    log.push({ event: 'refresh', clientId: client.client_id });
    return this.#issue(client.client_id, data.scopes, data.resource);
  }

  // The demo throws a plain Error (a 500); an unknown or expired token is a 401 with WWW-Authenticate, as the spec says.
  async verifyAccessToken(token) {
    try {
      return await super.verifyAccessToken(token);
    } catch (error) {
      throw new InvalidTokenError(error instanceof Error ? error.message : String(error));
    }
  }

  async revokeToken(client, request) {
    const known = this.tokens.delete(request.token) || this.refreshTokens.delete(request.token);
    log.push({ event: 'revoke', clientId: client.client_id, hint: request.token_type_hint ?? null, known });
  }
}

const provider = new Provider();
const app = express();
app.use(express.json());
app.use(express.urlencoded({ extended: false }));

// What a browser page needs to reach the MCP endpoint (and to read the 401's WWW-Authenticate).
const mcpCors = cors({
  origin: '*',
  methods: ['GET', 'POST', 'DELETE'],
  allowedHeaders: ['content-type', 'authorization', 'mcp-session-id', 'mcp-protocol-version', 'last-event-id'],
  exposedHeaders: ['mcp-session-id', 'www-authenticate'],
});

app.use(mcpAuthRouter({ provider, issuerUrl: base, resourceServerUrl: mcpUrl, scopesSupported: ['mcp:tools'], resourceName: 'Pausepoint OAuth test server' }));

app.post('/test/expire', (_req, res) => {
  for (const data of provider.tokens.values()) data.expiresAt = Date.now() - 1;
  res.json({ expired: provider.tokens.size });
});
app.get('/test/log', (_req, res) => res.json(log));

function mcpServer() {
  const server = new McpServer({ name: 'oauth-test-server', version: '1.0.0' });
  server.registerTool(
    'whisper',
    { description: 'Says the message back, for signed-in clients only', inputSchema: { message: z.string() }, annotations: { readOnlyHint: true, openWorldHint: false } },
    async ({ message }, extra) => {
      log.push({ event: 'call', tool: 'whisper', clientId: extra.authInfo?.clientId ?? null });
      return { content: [{ type: 'text', text: `Whispered back: ${message}` }] };
    },
  );
  return server;
}

app.options('/mcp', mcpCors);
const bearer = requireBearerAuth({ verifier: provider, resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl) });
// Stateless: every request gets a fresh server and transport, so there is no session to lose.
app.post('/mcp', mcpCors, bearer, async (req, res) => {
  const server = mcpServer();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, req.body);
});
app.get('/mcp', mcpCors, bearer, (_req, res) => res.status(405).set('allow', 'POST').end());
app.delete('/mcp', mcpCors, bearer, (_req, res) => res.status(405).set('allow', 'POST').end());

app.listen(port, '127.0.0.1', () => console.error(`mcp-oauth-server on ${base.href}`));
