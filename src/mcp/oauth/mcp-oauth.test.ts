import { createServer } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startOAuthServer, type OAuthServer } from '../../../tests/e2e/mcp-oauth.ts';
import { McpConnectError } from '../connect-failure.ts';
import { openHttpSession } from '../open-http-session.ts';
import type { SessionEvents } from '../mcp-session.ts';
import { AuthorizationServerRefused } from './authorization-server-pin.ts';
import { clientDocument } from './client-metadata-document.ts';
import { MemoryOAuthStore } from '../testing/memory-oauth-store.ts';
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
async function approve(authorizationUrl: string, callbackUrl = CALLBACK): Promise<{ code: string; state: string; iss: string | null }> {
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  expect(response.status).toBe(302);
  const callback = new URL(response.headers.get('location')!);
  expect(callback.origin + callback.pathname).toBe(callbackUrl);
  return { code: callback.searchParams.get('code')!, state: callback.searchParams.get('state')!, iss: callback.searchParams.get('iss') };
}

/** Begin, approve and finish: signed in. */
async function signIn(oauth: McpOAuth, server = ref): Promise<void> {
  const start = await oauth.begin(server, CALLBACK);
  if (start.kind !== 'redirect') throw new Error('expected a redirect');
  const { code, state, iss } = await approve(start.authorizationUrl);
  await oauth.finish(server, code, state, iss);
}

/** Another origin of the same server process (127.0.0.1 where it says localhost): a client that went there would be answered. */
function otherOrigin(path: string): string {
  return `http://127.0.0.1:${server.port}${path}`;
}

async function connect(oauth: McpOAuth) {
  return openHttpSession({ url: ref.url, headers: {}, bearerToken: null, authProvider: await oauth.connectionProvider(ref) }, EVENTS);
}

beforeAll(async () => {
  server = await startOAuthServer(await freePort());
  ref = { id: 'srv-oauth', url: server.url };
}, 30_000);
afterAll(() => server?.close());
let logStart = 0;
beforeEach(async () => {
  await server.configure({});
  logStart = (await server.log()).length;
});
/** What the server logged during this test (it runs for the whole file). */
const log = async () => (await server.log()).slice(logStart);

describe('McpOAuth against the SDK’s own authorization server', () => {
  it('signs in (discovery, registration, PKCE S256, state), connects with the token, refreshes it, and signs out with revocation', async () => {
    const store = new MemoryOAuthStore();
    const oauth = new McpOAuth(store);

    // No tokens: the server's 401 is "needs sign-in", with no sign-in started by the connection.
    const refused = await connect(oauth).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(McpConnectError);
    expect((refused as McpConnectError).kind).toBe('needs_auth');
    // Where the 401's WWW-Authenticate says the metadata is (RFC 9728), for Sign in to start from.
    const metadataUrl = (refused as McpConnectError).challenge.resourceMetadataUrl;
    expect(metadataUrl).toBe(`${new URL(server.url).origin}/.well-known/oauth-protected-resource/mcp`);
    expect(store.rows.size).toBe(0);

    const start = await oauth.begin(ref, CALLBACK, { resourceMetadataUrl: metadataUrl });
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
    expect((await session.listTools()).tools.map((t) => t.name)).toEqual(['whisper']);
    const result = await session.callTool('whisper', { message: 'hi' }, { signal: new AbortController().signal, timeoutMs: 10_000 });
    expect(result.content).toEqual([{ type: 'text', text: 'Whispered back: hi' }]);
    await session.close();

    // The server stops accepting the access token: the SDK's transport refreshes it on the 401 and goes on.
    const before = String(store.rows.get(ref.id)!.tokens!.access_token);
    await server.expireTokens();
    const again = await connect(oauth);
    expect((await again.listTools()).tools.map((t) => t.name)).toEqual(['whisper']);
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

describe('OAuth trusts the metadata it pinned at sign-in, not whatever the MCP server points to later (issue 26 point 7)', () => {
  it('refreshes only at the pinned authorization server: metadata that changes after sign-in means sign in again, and the refresh token goes nowhere', async () => {
    const store = new MemoryOAuthStore();
    const oauth = new McpOAuth(store);
    await signIn(oauth);
    expect(store.rows.get(ref.id)!.authorizationServer).toMatchObject({ authorizationServerUrl: `${new URL(server.url).origin}/`, metadata: { token_endpoint: `${new URL(server.url).origin}/token` } });

    // Between sign-in and refresh the metadata moves the token endpoint to another origin (the same process answers there).
    await server.configure({ metadata: { token_endpoint: otherOrigin('/token') } });
    await server.expireTokens();
    const before = (await log()).length;
    const refused = await connect(oauth).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(McpConnectError);
    expect((refused as McpConnectError).kind).toBe('needs_auth');
    expect((refused as McpConnectError).message).toMatch(/metadata changed since you signed in.*sign in again/);
    const after = (await log()).slice(before);
    expect(after.filter((e) => e.event === 'refresh' || e.path === '/token')).toEqual([]);

    // Tokens past their expires_in, with the metadata changed: no refresh before connecting either.
    const row = store.rows.get(ref.id)!;
    store.rows.set(ref.id, { ...row, tokensSavedAt: Date.now() - 2 * 3600_000 });
    await expect(oauth.connectionProvider(ref)).rejects.toThrow(/metadata changed since you signed in/);
    expect((await log()).filter((e) => e.event === 'refresh')).toEqual([]);

    // The metadata as it was: the pin holds again, and the refresh goes to the pinned token endpoint.
    await server.configure({});
    (await connect(oauth)).close();
    expect((await log()).filter((e) => e.path === '/token').map((e) => e.host)).toEqual([`localhost:${server.port}`, `localhost:${server.port}`]);
  }, 60_000);

  it('signs out at the pinned revocation endpoint, without discovering again', async () => {
    const store = new MemoryOAuthStore();
    const oauth = new McpOAuth(store);
    await signIn(oauth);
    await server.configure({ metadata: { revocation_endpoint: otherOrigin('/revoke') } });
    expect(await oauth.signOut(ref)).toEqual({ revoked: 'yes' });
    expect((await log()).filter((e) => e.path === '/revoke').map((e) => e.host)).toEqual([`localhost:${server.port}`, `localhost:${server.port}`]);
    expect(store.rows.get(ref.id)).toMatchObject({ tokens: null, authorizationServer: null });
  }, 60_000);

  it('refuses at sign-in an authorization server whose endpoints are not on its own origin, and sends nothing there', async () => {
    for (const [name, path] of [
      ['token_endpoint', '/token'],
      ['registration_endpoint', '/register'],
      ['revocation_endpoint', '/revoke'],
      ['authorization_endpoint', '/authorize'],
    ] as const) {
      await server.configure({ metadata: { [name]: otherOrigin(path) } });
      const store = new MemoryOAuthStore();
      const refused = await new McpOAuth(store).begin(ref, CALLBACK).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(AuthorizationServerRefused);
      expect((refused as Error).message).toContain(`puts its ${name.replace('_', ' ')} on another origin (${otherOrigin(path)})`);
      expect(store.rows.size).toBe(0);
    }
    await server.configure({ metadata: { issuer: 'https://auth.example/' } });
    await expect(new McpOAuth(new MemoryOAuthStore()).begin(ref, CALLBACK)).rejects.toThrow(/names another issuer in its metadata \(https:\/\/auth\.example\/\)/);
    expect((await log()).filter((e) => e.event === 'request')).toEqual([]);
  }, 60_000);

  it('checks the callback’s iss (RFC 9207) where the authorization server says it sends one', async () => {
    const issuer = `${new URL(server.url).origin}/`;
    for (const [iss, expected] of [
      ['http://evil.example/', /came from another authorization server \(http:\/\/evil\.example\/\)/],
      [undefined, /did not say which authorization server sent it/],
    ] as const) {
      await server.configure({ metadata: { authorization_response_iss_parameter_supported: true }, ...(iss ? { iss } : {}) });
      const store = new MemoryOAuthStore();
      const oauth = new McpOAuth(store);
      const start = await oauth.begin(ref, CALLBACK);
      if (start.kind !== 'redirect') throw new Error('expected a redirect');
      const answer = await approve(start.authorizationUrl);
      expect(answer.iss).toBe(iss ?? null);
      await expect(oauth.finish(ref, answer.code, answer.state, answer.iss)).rejects.toThrow(expected);
      expect(store.rows.get(ref.id)!.tokens).toBeNull();
    }
    expect((await log()).filter((e) => e.event === 'sign_in')).toEqual([]);

    // Its own issuer: signed in.
    await server.configure({ metadata: { authorization_response_iss_parameter_supported: true }, iss: 'issuer' });
    const store = new MemoryOAuthStore();
    const oauth = new McpOAuth(store);
    const start = await oauth.begin(ref, CALLBACK);
    if (start.kind !== 'redirect') throw new Error('expected a redirect');
    const answer = await approve(start.authorizationUrl);
    expect(answer.iss).toBe(issuer);
    await oauth.finish(ref, answer.code, answer.state, answer.iss);
    expect(store.rows.get(ref.id)!.tokens).toMatchObject({ access_token: expect.any(String) });
  }, 60_000);
});

describe('client identity without dynamic registration (issue 26 point 8)', () => {
  const APP = 'https://pausepoint.test/';
  const APP_CALLBACK = `${APP}mcp-oauth-callback`;
  const DOCUMENT = `${APP}client-metadata.json`;
  /** The app's host, which this test cannot serve over https: answers the document as the build ships it. */
  const appHost = (served: object | null) => (input: string | URL | Request, init?: RequestInit) =>
    String(input instanceof Request ? input.url : input) === DOCUMENT
      ? Promise.resolve(served ? Response.json(served) : new Response('<!doctype html>', { status: 404 }))
      : fetch(input, init);

  it('uses the app’s Client ID Metadata Document where the authorization server takes one, and registers where it does not or the app ships none', async () => {
    expect(clientDocument(APP)).toMatchObject({ client_id: DOCUMENT, redirect_uris: [APP_CALLBACK], token_endpoint_auth_method: 'none' });
    await server.configure({ metadata: { client_id_metadata_document_supported: true }, clientDocuments: { [DOCUMENT]: clientDocument(APP) } });
    const store = new MemoryOAuthStore();
    const oauth = new McpOAuth(store, { fetch: appHost(clientDocument(APP)) });
    const start = await oauth.begin(ref, APP_CALLBACK);
    if (start.kind !== 'redirect') throw new Error('expected a redirect');
    expect(new URL(start.authorizationUrl).searchParams.get('client_id')).toBe(DOCUMENT);
    const { code, state } = await approve(start.authorizationUrl, APP_CALLBACK);
    await oauth.finish(ref, code, state);
    expect(store.rows.get(ref.id)).toMatchObject({ clientInformation: { client_id: DOCUMENT }, tokens: { access_token: expect.any(String) } });
    const happened = (await log()).map((e) => e.event);
    expect(happened).toContain('client_document');
    expect(happened).not.toContain('register');

    // A host that does not serve the document (an SPA fallback's 404 page): registered dynamically instead.
    const other = new McpOAuth(new MemoryOAuthStore(), { fetch: appHost(null) });
    const fallback = await other.begin(ref, APP_CALLBACK);
    if (fallback.kind !== 'redirect') throw new Error('expected a redirect');
    expect(new URL(fallback.authorizationUrl).searchParams.get('client_id')).not.toBe(DOCUMENT);
    expect((await log()).filter((e) => e.event === 'register')).toHaveLength(1);

    // A host that cannot be reached for it (a network error, not an answer): registered dynamically too, not a failed sign-in.
    const unreachable = (input: string | URL | Request, init?: RequestInit) =>
      String(input instanceof Request ? input.url : input) === DOCUMENT ? Promise.reject(new TypeError('Failed to fetch')) : fetch(input, init);
    const offline = await new McpOAuth(new MemoryOAuthStore(), { fetch: unreachable }).begin(ref, APP_CALLBACK);
    if (offline.kind !== 'redirect') throw new Error('expected a redirect');
    expect(new URL(offline.authorizationUrl).searchParams.get('client_id')).not.toBe(DOCUMENT);
    expect((await log()).filter((e) => e.event === 'register')).toHaveLength(2);

    // An authorization server that takes no documents: registered dynamically, as before.
    await server.configure({});
    const plain = await new McpOAuth(new MemoryOAuthStore(), { fetch: appHost(clientDocument(APP)) }).begin(ref, APP_CALLBACK);
    if (plain.kind !== 'redirect') throw new Error('expected a redirect');
    expect(new URL(plain.authorizationUrl).searchParams.get('client_id')).not.toBe(DOCUMENT);
    expect((await log()).filter((e) => e.event === 'register')).toHaveLength(3);
  }, 60_000);

  it('signs in with a pre-registered Client ID at an authorization server that registers no clients, and says what to do without one', async () => {
    await server.configure({ metadata: { registration_endpoint: null }, clients: [{ client_id: 'pausepoint-by-hand', redirect_uris: [CALLBACK] }] });
    await expect(new McpOAuth(new MemoryOAuthStore()).begin(ref, CALLBACK)).rejects.toThrow(/registers no clients by itself: .*Client ID/);

    const store = new MemoryOAuthStore();
    const oauth = new McpOAuth(store);
    const registered = { ...ref, auth: { clientId: 'pausepoint-by-hand' } };
    const start = await oauth.begin(registered, CALLBACK);
    if (start.kind !== 'redirect') throw new Error('expected a redirect');
    expect(new URL(start.authorizationUrl).searchParams.get('client_id')).toBe('pausepoint-by-hand');
    const { code, state } = await approve(start.authorizationUrl);
    await oauth.finish(registered, code, state);
    const session = await openHttpSession({ url: ref.url, headers: {}, bearerToken: null, authProvider: await oauth.connectionProvider(registered) }, EVENTS);
    expect((await session.listTools()).tools.map((t) => t.name)).toEqual(['whisper']);
    await session.close();
    const events = await log();
    expect(events.filter((e) => e.event === 'sign_in').map((e) => e.clientId)).toEqual(['pausepoint-by-hand']);
    expect(events.filter((e) => e.event === 'register')).toEqual([]);
  }, 60_000);
});
