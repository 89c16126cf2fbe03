import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startOAuthServer, type OAuthServer } from '../../tests/e2e/mcp-oauth.ts';
import { realSleeps } from '../engine/testing/fake-clock.ts';
import { harness, pending, say, tab } from '../engine/testing/harness.ts';
import { McpHub } from './mcp-hub.ts';
import { MemoryOAuthStore } from './testing/memory-oauth-store.ts';
import { McpOAuth } from './oauth/mcp-oauth.ts';
import { openHttpSession } from './open-http-session.ts';
import { closeAfter, closeHubs, until } from './testing/hub-fixture.ts';
import { MemoryMcpStore } from './testing/memory-mcp-store.ts';

/**
 * Scopes against the SDK's own authorization server and bearer middleware
 * (tests/e2e/mcp-oauth-server.mjs), through the hub and the engine's gate:
 * the scope a 401 names is the one asked for, and a 403 `insufficient_scope`
 * on a call is a status the user answers (Sign in again), never a call sent
 * again unasked.
 */
const CALLBACK = 'http://127.0.0.1:4185/mcp-oauth-callback';

let server: OAuthServer;

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  if (typeof address !== 'object' || !address) throw new Error('no port');
  return address.port;
}

beforeAll(async () => {
  server = await startOAuthServer(await freePort());
}, 30_000);
afterAll(() => server?.close());
afterEach(closeHubs);

/** The popup's part: the authorization server approves at once; its redirect carries the code and state back. */
async function approve(authorizationUrl: string) {
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  const callback = new URL(response.headers.get('location')!);
  return { code: callback.searchParams.get('code')!, state: callback.searchParams.get('state')!, iss: callback.searchParams.get('iss') };
}

/** Sign in (or Sign in again) as the Settings button does it: the scope the authorization request asked for. */
async function signIn(hub: McpHub, id: string): Promise<string | null> {
  const start = await hub.beginSignIn(id, CALLBACK);
  if (start.kind !== 'redirect') throw new Error(`expected a redirect, got ${start.kind}`);
  const { code, state, iss } = await approve(start.authorizationUrl);
  await hub.finishSignIn(id, code, state, iss);
  return new URL(start.authorizationUrl).searchParams.get('scope');
}

describe('scopes that connect', () => {
  it('asks for the scope the 401 names; a 403 insufficient_scope is "not run: needs more access", sent once, and Sign in again asks for the union', async () => {
    await server.configure({ requiredScopes: ['mcp:read'], toolScopes: { whisper: 'mcp:write' } });
    const logStart = (await server.log()).length;
    const store = new MemoryMcpStore();
    const oauth = new McpOAuth(new MemoryOAuthStore());
    const hub = new McpHub({
      store,
      oauth,
      open: async (record, events) => openHttpSession({ url: record.url, headers: {}, bearerToken: null, authProvider: await oauth.connectionProvider(record) }, events),
      newId: () => 'srv-secure',
      reserved: new Set(),
      retryDelaysMs: [10],
    });
    closeAfter(hub);
    await hub.start();
    const { id } = await hub.add({ url: server.url, name: 'Secure' });
    const status = () => store.rows.get(id)!.status;

    // The 401's WWW-Authenticate names mcp:read (the metadata lists only mcp:tools): Sign in asks for mcp:read.
    const needsAuth = await until(() => (status().kind === 'needs_auth' ? status() : undefined), 'needs sign-in');
    expect(needsAuth).toMatchObject({ scope: 'mcp:read', reason: expect.not.stringMatching(/\.\./) });
    expect(await signIn(hub, id)).toBe('mcp:read');
    await until(() => (status().kind === 'connected' ? true : undefined), 'connected');

    // A call the user approves meets a 403 insufficient_scope: not run, told so, the status asks for Sign in again.
    const h = harness([], { dynamicTools: () => hub.tools(), clock: realSleeps() });
    h.model.push({ calls: [{ name: 'secure__whisper', args: { message: 'psst' } }] }, { text: 'ok' });
    const { conversationId } = await h.engine.send(null, 'whisper');
    const gate = await until(async () => (await pending(h, conversationId))[0], 'the gate');
    await h.engine.decide(gate.id, { type: 'approve' }, tab('tab-A'));
    await h.engine.whenIdle();
    const told = (await h.storage.listMessages(conversationId)).find((m) => m.role === 'tool')?.content;
    expect(told).toContain('failed: Not run: needs more access.');
    expect(status()).toMatchObject({ kind: 'needs_scope', scope: 'mcp:write', reason: expect.stringMatching(/Press Sign in again/) });
    const afterCall = (await server.log()).slice(logStart);
    // Sent once: no refresh, no second send, no tool run.
    expect(afterCall.filter((e) => e.event === 'insufficient_scope')).toHaveLength(1);
    expect(afterCall.filter((e) => e.event === 'refresh' || e.event === 'call')).toEqual([]);

    // Sign in again asks for what it holds and what the 403 named, through the authorization server (no refresh instead).
    expect(await signIn(hub, id)).toBe('mcp:read mcp:write');
    await until(() => (status().kind === 'connected' ? true : undefined), 'connected again');
    expect((await server.log()).filter((e) => e.event === 'sign_in').slice(-1)[0]).toMatchObject({ scopes: ['mcp:read', 'mcp:write'] });

    // The model's next call (the user asked again) runs.
    h.model.push({ calls: [{ name: 'secure__whisper', args: { message: 'again' } }] }, { text: 'ok' });
    await say(h, conversationId, 'whisper again');
    const card = (await pending(h, conversationId))[0]!;
    await h.engine.decide(card.id, { type: 'approve' }, tab('tab-A'));
    await h.engine.whenIdle();
    const results = (await h.storage.listMessages(conversationId)).filter((m) => m.role === 'tool').map((m) => m.content);
    expect(results.at(-1)).toContain('Whispered back: again');
  }, 60_000);
});
