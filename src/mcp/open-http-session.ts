import {
  Client,
  extractWWWAuthenticateParams,
  ProtocolError,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type ClientCapabilities,
  type OAuthClientProvider,
  type Transport,
} from '@modelcontextprotocol/client';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/client/validators/cf-worker';
import { bearerOnlyTo } from './bearer-only-to.ts';
import { MCP_APP_MIME_TYPE, UI_EXTENSION } from './ui-resource.ts';
import { connectFailure, McpConnectError, type AuthChallenge } from './connect-failure.ts';
import { NeedsMoreAccess } from './needs-more-access.ts';
import { TASKS_EXTENSION, TaskWire } from './task-wire.ts';
import { MAX_TOOL_PAGES } from './screen-listing.ts';
import { InFlight, sessionOverClient, type McpSession, type McpTransportKind, type SessionEvents } from './mcp-session.ts';

export const CLIENT_INFO = { name: 'pausepoint', version: '0.1.0' };
const CLIENT_CAPABILITIES: ClientCapabilities = { elicitation: { form: {}, url: {} }, sampling: {} };
const CONNECT_TIMEOUT_MS = 15_000;

export interface HttpEndpoint {
  url: string;
  headers: Record<string, string>;
  bearerToken: string | null;
  /** This browser's OAuth tokens for the server: the SDK's transport sends them (to this URL only) and refreshes them on a 401. */
  authProvider?: OAuthClientProvider;
  /** Advertise MCP Apps (the `io.modelcontextprotocol/ui` extension): the server may then offer tools with views. */
  views?: boolean;
}

/**
 * An SDK client that speaks the 2026-07-28 revision to a server that offers
 * it (`server/discover` first, no session) and the 2025 `initialize`
 * handshake to one that does not. A server's questions (form and URL
 * elicitation) and its sampling requests go to `events`, where each becomes
 * a card: on 2025 they come as requests from the server, on 2026-07-28 as an
 * `input_required` result, which the SDK answers through these same handlers
 * and retries the call with the answers. Validates without eval. URLs other
 * than http(s) never reach a card.
 */
export function newClient(events: SessionEvents, { views = false }: { views?: boolean } = {}): Client {
  const client = new Client(CLIENT_INFO, {
    capabilities: {
      ...CLIENT_CAPABILITIES,
      // Only while the person shows this server's views (and this build can isolate them): a server may shape its tools by it.
      ...(views ? { extensions: { [UI_EXTENSION]: { mimeTypes: [MCP_APP_MIME_TYPE] } } } : {}),
    },
    // The SDK's default in a browser is this one too; Node's (Ajv) compiles schemas with new Function, which the app's CSP forbids.
    jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
    versionNegotiation: { mode: 'auto' },
    // A server's list_changed reaches the hub on both revisions (on 2026-07-28 through the subscriptions/listen stream the SDK opens); the hub lists again itself.
    listChanged: { tools: { autoRefresh: false, debounceMs: 0, onChanged: () => events.onToolsChanged() } },
    // At most this many pages of a list are read; a tools/list past it keeps what its pages listed (mcp-session.ts).
    listMaxPages: MAX_TOOL_PAGES,
  });
  client.setRequestHandler('elicitation/create', (request, ctx) => {
    if (request.params.mode === 'url') {
      const scheme = new URL(request.params.url).protocol;
      if (scheme !== 'https:' && scheme !== 'http:') {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Pausepoint opens only http: and https: links for a server; a ${scheme} link is refused.`);
      }
    }
    return events.onElicit(request.params, ctx.mcpReq.signal);
  });
  client.setRequestHandler('sampling/createMessage', (request, ctx) => events.onSample(request.params, ctx.mcpReq.signal));
  // Anything else a server might ask is refused in words a server's log can show.
  client.fallbackRequestHandler = async (request) => {
    throw new ProtocolError(ProtocolErrorCode.MethodNotFound, `Pausepoint does not answer ${request.method}.`);
  };
  return client;
}

/**
 * Connects over Streamable HTTP, falling back to the legacy HTTP+SSE
 * transport when the server answers as an old one would (a 4xx to the POST),
 * as the SDK's documentation shows. Every failure becomes a `McpConnectError`
 * whose message says what the server must do (see connect-failure.ts).
 */
export async function openHttpSession(endpoint: HttpEndpoint, events: SessionEvents): Promise<McpSession> {
  const challenge: AuthChallenge = {};
  try {
    return await attemptBoth(endpoint, events, challenge);
  } catch (error) {
    if (!(error instanceof McpConnectError) || error.kind !== 'needs_auth' || (!challenge.resourceMetadataUrl && !challenge.scope)) throw error;
    throw new McpConnectError(error.kind, error.message, { ...challenge });
  }
}

async function attemptBoth(endpoint: HttpEndpoint, events: SessionEvents, challenge: AuthChallenge): Promise<McpSession> {
  try {
    return await attemptEither(endpoint, events, challenge);
  } catch (error) {
    const oldServer =
      error instanceof SdkHttpError &&
      error.status >= 400 &&
      error.status < 500 &&
      error.status !== 401 &&
      error.status !== 403 &&
      // A new server that lost track of the session (its id hidden from the page) is no old server.
      !/session|not initialized/i.test(error.message);
    if (!oldServer) throw connectFailure(error, endpoint.url, 'initialize');
    try {
      // HTTP+SSE is a 2025-era transport (2026-07-28 has none): straight to the initialize handshake.
      return await attempt(endpoint, events, 'sse', challenge, 'legacy');
    } catch (sseError) {
      throw sseError instanceof McpConnectError ? sseError : connectFailure(error, endpoint.url, 'initialize');
    }
  }
}

/**
 * Streamable HTTP at the revision the server offers. A 2025 server whose CORS preflight refuses
 * 2026-07-28's request headers (mcp-method, mcp-name: its allow-list predates them) makes the
 * `server/discover` probe fail as a browser's opaque TypeError. The SDK takes that for a 2025
 * server in a page, but not in a worker (it looks for `window`), so this worker asks again with
 * the 2025 handshake itself; a server that is down fails that too, and is reported so.
 */
async function attemptEither(endpoint: HttpEndpoint, events: SessionEvents, challenge: AuthChallenge): Promise<McpSession> {
  try {
    return await attempt(endpoint, events, 'streamable_http', challenge, 'auto');
  } catch (error) {
    if (!(error instanceof SdkError && error.code === SdkErrorCode.EraNegotiationFailed && error.cause instanceof TypeError)) throw error;
    return await attempt(endpoint, events, 'streamable_http', challenge, 'legacy');
  }
}

async function attempt(endpoint: HttpEndpoint, events: SessionEvents, kind: McpTransportKind, challenge: AuthChallenge, era: 'auto' | 'legacy'): Promise<McpSession> {
  const url = new URL(endpoint.url);
  const headers: Record<string, string> = { ...endpoint.headers };
  if (endpoint.bearerToken) headers.authorization = `Bearer ${endpoint.bearerToken}`;
  const inFlight = new InFlight();
  let lost = false;
  const lose = (reason: string) => {
    if (lost) return;
    lost = true;
    inFlight.dropAll(`the connection to the server was lost while the call was running (${reason}).`);
    events.onLost(reason);
  };
  const fetchWatching = watchingFetch(bearerOnlyTo(url.origin), lose, (response) => {
    const said = extractWWWAuthenticateParams(response);
    const where = said.resourceMetadataUrl;
    if (where && (where.protocol === 'https:' || where.protocol === 'http:')) challenge.resourceMetadataUrl = where.href;
    if (said.scope) challenge.scope = said.scope;
  });
  const transport: Transport =
    kind === 'streamable_http'
      ? new StreamableHTTPClientTransport(url, {
          requestInit: { headers },
          fetch: fetchWatching,
          reconnectionOptions: RECONNECTION,
          authProvider: endpoint.authProvider,
          // watchingFetch answers a 403 insufficient_scope before the SDK would see it; were one to pass, the SDK must not sign in again by itself.
          onInsufficientScope: 'throw',
        })
      : new SSEClientTransport(url, { requestInit: { headers }, fetch: fetchWatching, eventSourceInit: { fetch: fetchWatching }, authProvider: endpoint.authProvider });
  const client = newClient(events, { views: endpoint.views === true });
  let connected = false;
  client.onerror = (error) => {
    // Before the session is up, connect() reports failures itself; after, a broken stream means the connection is gone.
    if (connected && /disconnected|reconnect|SSE error|terminated|network/i.test(error.message)) lose(error.message);
  };
  client.onclose = () => {
    if (connected) lose('it closed');
  };
  try {
    await client.connect(transport, { timeout: CONNECT_TIMEOUT_MS, ...(era === 'legacy' ? { prior: { kind: 'legacy' as const } } : {}) });
  } catch (error) {
    await client.close().catch(() => undefined);
    if (kind === 'sse') throw connectFailure(error, endpoint.url, 'initialize');
    throw error;
  }
  connected = true;
  const session = sessionOverClient(
    client,
    kind,
    inFlight,
    async () => {
      connected = false;
      if (transport instanceof StreamableHTTPClientTransport) await transport.terminateSession().catch(() => undefined);
      await client.close();
    },
    taskWire(client, transport, events),
  );
  // A server may let `initialize` in and ask for sign-in at `tools/list`: that 401's challenge goes with the failure too.
  return {
    ...session,
    listTools: () =>
      session.listTools().catch((error: unknown) => {
        const failure = connectFailure(error, endpoint.url, 'list');
        throw failure.kind === 'needs_auth' && (challenge.resourceMetadataUrl || challenge.scope) ? new McpConnectError(failure.kind, failure.message, { ...challenge }) : failure;
      }),
  };
}

/** MCP's Tasks extension, when the server offers it on 2026-07-28 (`server/discover`'s capabilities). */
function taskWire(client: Client, transport: Transport, events: SessionEvents): TaskWire | undefined {
  const version = client.getNegotiatedProtocolVersion();
  if (client.getProtocolEra() !== 'modern' || !version || client.getServerCapabilities()?.extensions?.[TASKS_EXTENSION] === undefined) return undefined;
  return new TaskWire(transport, version, CLIENT_INFO, CLIENT_CAPABILITIES, events);
}

/** The SDK's default retries a broken stream twice; a dead server is noticed sooner this way, and the hub reconnects. */
const RECONNECTION = { maxRetries: 1, initialReconnectionDelay: 500, maxReconnectionDelay: 2_000, reconnectionDelayGrowFactor: 1.5 };

/**
 * fetch, with every streamed response body watched: when one breaks (the
 * server died, the network dropped), the calls waiting on it are failed as
 * dropped at once. The SDK itself only reports the break and waits on. A 401
 * is shown to `onUnauthorized`, which reads where the server's OAuth metadata
 * is and the scope it asks for. A 403 `insufficient_scope` is thrown as
 * `NeedsMoreAccess` here, so the SDK neither refreshes nor sends the request
 * again by itself: the request was not run, and only the user can grant more.
 */
function watchingFetch(base: typeof fetch, onBroken: (reason: string) => void, onUnauthorized: (response: Response) => void): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init);
    if (response.status === 401) onUnauthorized(response);
    if (response.status === 403) {
      const said = extractWWWAuthenticateParams(response);
      if (said.error === 'insufficient_scope') {
        await response.body?.cancel().catch(() => undefined);
        const where = said.resourceMetadataUrl;
        throw new NeedsMoreAccess(said.scope ?? '', where && (where.protocol === 'https:' || where.protocol === 'http:') ? where.href : undefined);
      }
    }
    if (!response.body || !(response.headers.get('content-type') ?? '').includes('text/event-stream')) return response;
    const reader = response.body.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) controller.close();
          else controller.enqueue(value);
        } catch (error) {
          // Closing on purpose (Disconnect, a finished session) aborts the stream too: that is not a break.
          if (!init?.signal?.aborted) onBroken(error instanceof Error ? error.message : String(error));
          controller.error(error);
        }
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}
