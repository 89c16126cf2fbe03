/**
 * The client the official MCP conformance suite runs for each client
 * scenario (`npm run conformance:mcp`, scripts/conformance-mcp.mjs): the
 * suite starts the scenario's server and runs this with its URL as the last
 * argument. It is Pausepoint's own code path, not an SDK example: the hub
 * (src/mcp/mcp-hub.ts) adds the server by URL and connects it with
 * openHttpSession; OAuth is McpOAuth, whose popup is played by a fetch that
 * follows the authorization server's redirects to the app's callback;
 * every tool call goes through the engine, whose card the test approves as a
 * user would, and a server's form is submitted as the card shows it (its
 * defaults filled in). Status changes that ask the user (Sign in, Sign in
 * again) are answered as a user would, at most three times.
 */
import { z } from 'zod';
import { realSleeps } from '../../src/engine/testing/fake-clock.ts';
import { harness, pending, tab } from '../../src/engine/testing/harness.ts';
import { McpHub } from '../../src/mcp/mcp-hub.ts';
import type { McpServerStatus } from '../../src/storage/records/mcp-server-record.ts';
import { clientDocument, clientDocumentUrl } from '../../src/mcp/oauth/client-metadata-document.ts';
import { MemoryOAuthStore } from '../../src/mcp/testing/memory-oauth-store.ts';
import { McpOAuth } from '../../src/mcp/oauth/mcp-oauth.ts';
import { openHttpSession } from '../../src/mcp/open-http-session.ts';
import { MemoryMcpStore } from '../../src/mcp/testing/memory-mcp-store.ts';

const serverUrl = process.argv.at(-1)!;
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
/** Where the app is served in this run: https, so that its Client ID Metadata Document can be offered. */
const APP = 'https://conformance-test.local/';
const CALLBACK = new URL('mcp-oauth-callback', APP).href;
const MAX_SIGN_INS = 3;
/** A scenario's tools are called, each once, up to this many (sep-2322's checks take five). */
const MAX_CALLS = 8;
const ScenarioContext = z.object({ toolCalls: z.array(z.object({ name: z.string(), arguments: z.record(z.string(), z.unknown()) })).optional() });
const WAIT_MS = 20_000;

const log = (...parts: unknown[]) => console.error(`[pausepoint ${scenario}]`, ...parts);

/** The network as the app sees it: the app's own host serves the document the build ships; everything else is the real network. */
const appFetch: typeof fetch = (input, init) => {
  const url = input instanceof Request ? input.url : String(input);
  if (url === clientDocumentUrl(CALLBACK)) return Promise.resolve(Response.json(clientDocument(APP)));
  return fetch(input, init);
};

/** The popup: follows the authorization server's redirects until one reaches the app's callback, and reads its parameters. */
async function popup(authorizationUrl: string): Promise<URLSearchParams> {
  let at = authorizationUrl;
  for (let hop = 0; hop < 10; hop++) {
    if (at.startsWith(CALLBACK)) return new URL(at).searchParams;
    const response = await fetch(at, { redirect: 'manual' });
    const next = response.headers.get('location');
    if (!next) throw new Error(`the authorization server answered HTTP ${response.status} without sending the popup back`);
    at = new URL(next, at).href;
  }
  throw new Error('too many redirects');
}

const store = new MemoryMcpStore();
const oauth = new McpOAuth(new MemoryOAuthStore(), { fetch: appFetch });
const hub = new McpHub({
  store,
  oauth,
  open: async (record, events) =>
    openHttpSession({ url: record.url, headers: record.auth.headers, bearerToken: record.auth.bearerToken, authProvider: await oauth.connectionProvider(record) }, events),
  newId: () => 'conformance',
  reserved: new Set(),
  // One attempt per status: a failure is reported, not retried in a loop.
  retryDelaysMs: [60_000],
});
const h = harness([], { dynamicTools: () => hub.tools(), clock: realSleeps() });

async function until<T>(probe: () => T | undefined | Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const status = (id: string): McpServerStatus => store.rows.get(id)!.status;
const settled = (id: string) => until(() => (status(id).kind === 'connecting' ? undefined : status(id)), 'the server to connect or fail');

let signIns = 0;
/** Sign in, or Sign in again, as the button in Settings does it. */
async function signIn(id: string): Promise<void> {
  signIns++;
  const start = await hub.beginSignIn(id, CALLBACK);
  if (start.kind === 'authorized') return;
  const answer = await popup(start.authorizationUrl);
  const code = answer.get('code');
  if (!code) throw new Error(`the authorization server did not sign in: ${answer.get('error') ?? 'no code'}`);
  await hub.finishSignIn(id, code, answer.get('state') ?? '', answer.get('iss'));
}

/** Connected, signing in while the server asks for it (and the user still would). */
async function connected(id: string): Promise<void> {
  for (;;) {
    const now = await settled(id);
    if (now.kind === 'connected') return;
    if ((now.kind === 'needs_auth' || now.kind === 'needs_scope') && signIns < MAX_SIGN_INS) {
      log(`${now.kind}: ${now.reason}`);
      await signIn(id);
      await until(() => (JSON.stringify(status(id)) === JSON.stringify(now) ? undefined : true), 'the sign-in to take');
      continue;
    }
    throw new Error(`${now.kind}: ${'reason' in now ? now.reason : ''}`);
  }
}

/** Arguments a model would propose for a tool's schema: a value of each required property's type. */
function argumentsFor(schema: Record<string, unknown>): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, { type?: string; enum?: unknown[] }>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const values: Record<string, unknown> = {};
  for (const name of required) {
    const property = properties[name] ?? {};
    values[name] = property.enum?.[0] ?? (property.type === 'number' || property.type === 'integer' ? 1 : property.type === 'boolean' ? true : property.type === 'array' ? [] : property.type === 'object' ? {} : 'conformance');
  }
  return values;
}

/** One call through the engine: its card approved, any form the server sends submitted as shown. What the model was told. */
async function call(conversationId: string | null, name: string, args: Record<string, unknown>): Promise<{ conversationId: string; told: string }> {
  h.model.push({ calls: [{ name, args }] }, { text: 'done' });
  const sent = await h.engine.send(conversationId, `call ${name}`);
  const answered = new Set<string>();
  const before = (await h.storage.listMessages(sent.conversationId)).filter((m) => m.role === 'tool').length;
  for (;;) {
    const tools = (await h.storage.listMessages(sent.conversationId)).filter((m) => m.role === 'tool');
    if (tools.length > before) {
      await h.engine.whenIdle();
      return { conversationId: sent.conversationId, told: String(tools.at(-1)!.content) };
    }
    for (const card of await pending(h, sent.conversationId)) {
      if (answered.has(card.id)) continue;
      answered.add(card.id);
      if (card.kind === 'data_entry') {
        const properties = ((card.payload as { properties?: Record<string, { default?: unknown }> } | null)?.properties ?? {}) as Record<string, { default?: unknown }>;
        const data = Object.fromEntries(Object.entries(properties).flatMap(([key, field]) => (field.default === undefined ? [] : [[key, field.default]])));
        log('submits the form', JSON.stringify(data));
        await h.engine.decide(card.id, { type: 'submit', data }, tab('conformance'));
      } else {
        await h.engine.decide(card.id, { type: 'approve' }, tab('conformance'));
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function main(): Promise<void> {
  await hub.start();
  const { id } = await hub.add({ url: serverUrl, name: 'Conformance' });
  await connected(id);
  const tools = hub.tools();
  log('tools', tools.map((t) => t.name).join(', ') || '(none)');
  let conversationId: string | null = null;
  // json-schema-2020-12-preservation: the schema as this client stored it (and hashed it), sent back through the echo tool.
  const echo = tools.find((t) => t.mcp?.toolName === 'json_schema_echo');
  const focal = tools.find((t) => t.mcp?.toolName === 'json_schema_2020_12_tool');
  if (echo && focal) {
    const { told } = await call(null, echo.name, { schema: (focal.sourceDefinition as { inputSchema: unknown }).inputSchema });
    log(`${echo.name} →`, told.slice(0, 300));
    return;
  }
  // Some scenarios name the calls to make, with their arguments (MCP_CONFORMANCE_CONTEXT): as a model would propose them.
  const named = ScenarioContext.safeParse(JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}')).data?.toolCalls ?? [];
  const plan = named.length
    ? named.flatMap(({ name, arguments: args }) =>
        // A null for an optional argument is left out: the engine checks arguments against the tool's schema, which refuses null for a boolean.
        tools.filter((t) => t.mcp?.toolName === name).map((tool) => ({ tool, args: Object.fromEntries(Object.entries(args).filter(([, value]) => value !== null)) })),
      )
    : tools.slice(0, MAX_CALLS).map((tool) => ({ tool, args: argumentsFor(tool.parameters as Record<string, unknown>) }));
  for (const { tool, args } of plan) {
    let result = await call(conversationId, tool.name, args);
    conversationId = result.conversationId;
    // Not run for want of access: the user presses Sign in again, and asks again.
    while (/Not run: needs more access/.test(result.told) && signIns < MAX_SIGN_INS) {
      await connected(id);
      result = await call(conversationId, tool.name, args);
    }
    log(`${tool.name} →`, result.told.slice(0, 300));
    if (/failed:/.test(result.told)) throw new Error(result.told);
  }
}

try {
  await main();
  await hub.close();
  process.exit(0);
} catch (error) {
  log('failed:', error instanceof Error ? error.message : String(error));
  await hub.close().catch(() => undefined);
  process.exit(1);
}
