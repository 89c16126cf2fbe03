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
// GET /test/log lists what happened (sign-ins, refreshes, revocations, calls,
// and every request to /token, /register and /revoke with the host it was
// sent to); POST /test/config changes how it behaves from then on (see
// `config` below): its metadata, as between a sign-in and a refresh, the
// `iss` its callback carries (RFC 9207), the Client ID Metadata Documents it
// would fetch, and clients registered by hand.
import cors from 'cors';
import express from 'express';
import { randomUUID } from 'node:crypto';
import { DemoInMemoryAuthProvider } from '@modelcontextprotocol/sdk/examples/server/demoInMemoryOAuthProvider.js';
import { InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { createOAuthMetadata, getOAuthProtectedResourceMetadataUrl, mcpAuthRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import * as z from 'zod/v4';

const port = Number(process.env.PORT);
const base = new URL(`http://localhost:${port}/`);
const mcpUrl = new URL('/mcp', base);
const log = [];

/**
 * What POST /test/config sets (each call replaces it whole):
 * - `metadata`: fields laid over the router's RFC 8414 metadata (`null` removes one);
 * - `iss`: what /authorize adds to the callback — `'issuer'` (this server's issuer), any other string (sent as is), or nothing;
 * - `clientDocuments`: Client ID Metadata Documents by URL. This server cannot fetch the app's https document in a test,
 *   so a test hands it the document it would have fetched; a client id that is such a URL is that document's client;
 * - `clients`: clients registered by hand (pre-registered: `client_id`, `redirect_uris`);
 * - `requiredScopes`: scopes every MCP request needs: a 401 names them in its WWW-Authenticate `scope`, and a
 *   token without them gets 403 `insufficient_scope` (the SDK's bearer middleware);
 * - `toolScopes`: a scope a tool's calls need besides (`{ whisper: 'mcp:write' }`): a call with a token
 *   without it gets 403 `insufficient_scope` naming it (a step-up).
 */
const emptyConfig = { metadata: {}, iss: null, clientDocuments: {}, clients: [], requiredScopes: [], toolScopes: {} };
let config = emptyConfig;

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
    log.push({ event: 'sign_in', clientId: client.client_id, resource: data?.params.resource?.href ?? null, scopes: data?.params.scopes ?? [] });
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

  // RFC 9207: the callback names its sender when the test says so.
  async authorize(client, params, res) {
    const iss = config.iss === 'issuer' ? base.href : config.iss;
    const redirect = res.redirect.bind(res);
    res.redirect = (url) => {
      const target = new URL(url);
      if (typeof iss === 'string') target.searchParams.set('iss', iss);
      redirect(target.href);
    };
    return super.authorize(client, params, res);
  }

  async revokeToken(client, request) {
    const known = this.tokens.delete(request.token) || this.refreshTokens.delete(request.token);
    log.push({ event: 'revoke', clientId: client.client_id, hint: request.token_type_hint ?? null, known });
  }
}

const provider = new Provider();
const clients = provider.clientsStore;
const storedClient = clients.getClient.bind(clients);
const registerClient = clients.registerClient.bind(clients);
clients.getClient = async (clientId) => {
  const document = config.clientDocuments[clientId];
  if (document) {
    log.push({ event: 'client_document', clientId });
    // A document is its client's only if it names itself (draft-ietf-oauth-client-id-metadata-document).
    return document.client_id === clientId ? { token_endpoint_auth_method: 'none', ...document } : undefined;
  }
  return config.clients.find((c) => c.client_id === clientId) ?? storedClient(clientId);
};
clients.registerClient = async (metadata) => {
  log.push({ event: 'register', redirectUris: metadata.redirect_uris });
  return registerClient(metadata);
};

const app = express();
app.use(express.json());
app.use(express.urlencoded({ extended: false }));

// Where each secret-carrying request went: the host says which origin the client chose.
app.use((req, _res, next) => {
  if (req.method === 'POST' && ['/token', '/register', '/revoke'].includes(req.path)) log.push({ event: 'request', path: req.path, host: req.headers.host });
  next();
});

// The router's metadata, with the test's changes laid over it: served before the router's own copy.
const routerOptions = { provider, issuerUrl: base, resourceServerUrl: mcpUrl, scopesSupported: ['mcp:tools'], resourceName: 'Pausepoint OAuth test server' };
const metadata = createOAuthMetadata(routerOptions);
app.use('/.well-known/oauth-authorization-server', cors(), (_req, res) => {
  const changed = { ...metadata, ...config.metadata };
  res.json(Object.fromEntries(Object.entries(changed).filter(([, value]) => value !== null && value !== undefined)));
});
app.post('/test/config', (req, res) => {
  config = { ...emptyConfig, ...req.body };
  res.json(config);
});

// What a browser page needs to reach the MCP endpoint (and to read the 401's WWW-Authenticate).
const mcpCors = cors({
  origin: '*',
  methods: ['GET', 'POST', 'DELETE'],
  allowedHeaders: ['content-type', 'authorization', 'mcp-session-id', 'mcp-protocol-version', 'last-event-id'],
  exposedHeaders: ['mcp-session-id', 'www-authenticate'],
});

app.use(mcpAuthRouter(routerOptions));

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
const resourceMetadataUrl = getOAuthProtectedResourceMetadataUrl(mcpUrl);
// Made per request: the scopes it requires are the test's config at the time.
const bearer = (req, res, next) => requireBearerAuth({ verifier: provider, resourceMetadataUrl, requiredScopes: config.requiredScopes })(req, res, next);

/** A call of a tool that needs a scope the token lacks: 403 `insufficient_scope` naming it (RFC 6750 §3.1), before the tool runs. */
function stepUp(req, res, next) {
  const needed = req.body?.method === 'tools/call' ? config.toolScopes[req.body.params?.name] : undefined;
  if (!needed || req.auth?.scopes.includes(needed)) return next();
  log.push({ event: 'insufficient_scope', tool: req.body.params.name, had: req.auth?.scopes ?? [] });
  res.set('WWW-Authenticate', `Bearer error="insufficient_scope", error_description="Needs ${needed}", scope="${needed}", resource_metadata="${resourceMetadataUrl}"`);
  res.status(403).json({ error: 'insufficient_scope', error_description: `Needs ${needed}` });
}

// Stateless: every request gets a fresh server and transport, so there is no session to lose.
app.post('/mcp', mcpCors, bearer, stepUp, async (req, res) => {
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
