import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOAuthServer, type OAuthServer } from '../../../tests/e2e/mcp-oauth.ts';
import { McpConnectError } from '../connect-failure.ts';
import { openHttpSession } from '../open-http-session.ts';
import type { SessionEvents } from '../mcp-session.ts';
import { MemoryOAuthStore } from './mcp-oauth-record.ts';
import { McpOAuth, SignInRefused } from './mcp-oauth.ts';

/**
 * Against a real authorization server and protected MCP server built from
 * the SDK's server-side auth pieces (tests/e2e/mcp-oauth-server.mjs), in its
 * own process. The popup is played by fetch: /authorize approves at once and
 * redirects to the callback with the code and state.
 */
const CALLBACK = 'http://127.0.0.1:4185/mcp-oauth-callback';
const EVENTS: SessionEvents = {
  onToolsChanged() {},
  onLost() {},
  onElicit: async () => ({ action: 'decline' }),
  onSample: () => Promise.reject(new Error('no sampling here')),
};

let server: OAuthServer;
let ref: { id: string; url: string };

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  if (typeof address !== 'object' || !address) throw new Error('no port');
  return address.port;
}

/** What the popup would do: follow the authorization URL to the callback, and read the callback's parameters. */
async function approve(authorizationUrl: string): Promise<{ code: string; state: string }> {
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  expect(response.status).toBe(302);
  const callback = new URL(response.headers.get('location')!);
  expect(callback.origin + callback.pathname).toBe(CALLBACK);
  return { code: callback.searchParams.get('code')!, state: callback.searchParams.get('state')! };
}

async function connect(oauth: McpOAuth) {
  return openHttpSession({ url: ref.url, headers: {}, bearerToken: null, authProvider: await oauth.connectionProvider(ref) }, EVENTS);
}

beforeAll(async () => {
  server = await startOAuthServer(await freePort());
  ref = { id: 'srv-oauth', url: server.url };
}, 30_000);
afterAll(() => server?.close());

describe('McpOAuth against the SDK’s own authorization server', () => {
  it('signs in (discovery, registration, PKCE S256, state), connects with the token, refreshes it, and signs out with revocation', async () => {
    const store = new MemoryOAuthStore();
    const oauth = new McpOAuth(store);

    // No tokens: the server's 401 is "needs sign-in", with no sign-in started by the connection.
    const refused = await connect(oauth).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(McpConnectError);
    expect((refused as McpConnectError).kind).toBe('needs_auth');
    // Where the 401's WWW-Authenticate says the metadata is (RFC 9728), for Sign in to start from.
    const metadataUrl = (refused as McpConnectError).resourceMetadataUrl;
    expect(metadataUrl).toBe(`${new URL(server.url).origin}/.well-known/oauth-protected-resource/mcp`);
    expect(store.rows.size).toBe(0);

    const start = await oauth.begin(ref, CALLBACK, metadataUrl);
    if (start.kind !== 'redirect') throw new Error('expected a redirect');
    const authorization = new URL(start.authorizationUrl);
    expect(authorization.origin).toBe(new URL(server.url).origin);
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorization.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorization.searchParams.get('state')).toBe(start.state);
    expect(authorization.searchParams.get('redirect_uri')).toBe(CALLBACK);
    expect(authorization.searchParams.get('resource')).toBe(server.url);
    // Registered dynamically, as a public client (no secret to keep in a browser).
    const registered = store.rows.get(ref.id)!;
    expect(registered.clientInformation).toMatchObject({ client_id: expect.any(String), token_endpoint_auth_method: 'none', redirect_uris: [CALLBACK] });
    expect(registered.tokens).toBeNull();

    const { code, state } = await approve(start.authorizationUrl);
    expect(state).toBe(start.state);
    // An answer with another state is refused, and leaves the real one usable.
    await expect(oauth.finish(ref, code, `${state}x`)).rejects.toBeInstanceOf(SignInRefused);
    await oauth.finish(ref, code, state);
    // The state is good for one answer only.
    await expect(oauth.finish(ref, code, state)).rejects.toBeInstanceOf(SignInRefused);
    expect(store.rows.get(ref.id)).toMatchObject({ tokens: { access_token: expect.any(String), refresh_token: expect.any(String) }, pending: null });

    const session = await connect(oauth);
    expect((await session.listTools()).map((t) => t.name)).toEqual(['whisper']);
    const result = await session.callTool('whisper', { message: 'hi' }, { signal: new AbortController().signal, timeoutMs: 10_000 });
    expect(result.content).toEqual([{ type: 'text', text: 'Whispered back: hi' }]);
    await session.close();

    // The server stops accepting the access token: the SDK's transport refreshes it on the 401 and goes on.
    const before = String(store.rows.get(ref.id)!.tokens!.access_token);
    await server.expireTokens();
    const again = await connect(oauth);
    expect((await again.listTools()).map((t) => t.name)).toEqual(['whisper']);
    await again.close();
    expect(String(store.rows.get(ref.id)!.tokens!.access_token)).not.toBe(before);

    // Tokens past their expires_in are refreshed before connecting, not sent to fail.
    const row = store.rows.get(ref.id)!;
    store.rows.set(ref.id, { ...row, tokensSavedAt: Date.now() - 2 * 3600_000 });
    const stale = String(row.tokens!.access_token);
    (await connect(oauth)).close();
    expect(String(store.rows.get(ref.id)!.tokens!.access_token)).not.toBe(stale);
    expect((await server.log()).filter((e) => e.event === 'refresh')).toHaveLength(2);

    expect(await oauth.signOut(ref)).toEqual({ revoked: 'yes' });
    expect(store.rows.get(ref.id)).toMatchObject({ tokens: null, clientInformation: { client_id: expect.any(String) } });
    const revocations = (await server.log()).filter((e) => e.event === 'revoke');
    expect(revocations.map((e) => [e.hint, e.known])).toEqual([
      ['refresh_token', true],
      ['access_token', true],
    ]);
    expect(await oauth.connectionProvider(ref)).toBeUndefined();
    const out = await connect(oauth).catch((error: unknown) => error);
    expect((out as McpConnectError).kind).toBe('needs_auth');
  }, 60_000);

  it('asks for a new sign-in, without starting one, when the refresh token is refused', async () => {
    const store = new MemoryOAuthStore();
    const oauth = new McpOAuth(store);
    const start = await oauth.begin(ref, CALLBACK);
    if (start.kind !== 'redirect') throw new Error('expected a redirect');
    const { code, state } = await approve(start.authorizationUrl);
    await oauth.finish(ref, code, state);
    const row = store.rows.get(ref.id)!;
    store.rows.set(ref.id, { ...row, tokens: { ...row.tokens, refresh_token: 'forged' } });
    await server.expireTokens();

    const refused = await connect(oauth).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(McpConnectError);
    expect((refused as McpConnectError).kind).toBe('needs_auth');
    expect(store.rows.get(ref.id)!.pending).toBeNull();
  }, 60_000);
});
