import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { OutcomeUnknown } from '../engine/errors.ts';
import type { ToolContext, ToolDefinition } from '../engine/tool-definition.ts';
import { connectFailure, McpConnectError } from './connect-failure.ts';
import { acceptDefinition, hashDefinitions, hasChanged, pinTools } from './definition-pin.ts';
import { formatToolResult } from './format-tool-result.ts';
import type { McpServerDraft, McpServerRecord, McpServerStatus, McpToolDefinition } from './mcp-server-record.ts';
import { definitionChangeEvents } from './definition-change-events.ts';
import type { McpServerStore, ServerAuditEvents } from './mcp-server-store.ts';
import type { SignInStart, SignOutResult } from './oauth/mcp-oauth.ts';
import { CallDropped, NotRun, SessionLost, type McpSession, type SessionEvents } from './mcp-session.ts';
import { mcpToolDefinition, serverLabel } from './mcp-tool.ts';
import { serverRequests, type Asker, type Sampler } from './server-requests.ts';
import { assignToolNames, serverPrefix } from './tool-names.ts';

export type OpenSession = (server: McpServerRecord, events: SessionEvents) => Promise<McpSession>;

/** OAuth sign-in for the servers that need it (McpOAuth in the app). */
export interface HubOAuth {
  begin(server: McpServerRecord, redirectUrl: string, resourceMetadataUrl?: string): Promise<SignInStart>;
  finish(server: McpServerRecord, code: string, state: string): Promise<void>;
  signOut(server: McpServerRecord): Promise<SignOutResult>;
  forget(serverId: string): Promise<void>;
}

export interface McpHubOptions {
  oauth?: HubOAuth;
  /** Runs approved sampling requests; without it, sampling is refused. */
  sample?: Sampler;
  store: McpServerStore;
  open: OpenSession;
  newId: () => string;
  now?: () => number;
  /** Names of the app's own tools, which no MCP tool may take. */
  reserved: ReadonlySet<string>;
  /** How long one call may go without an answer or progress. */
  callTimeoutMs?: number;
  /** Waits before each reconnection attempt after a failure; the last repeats. */
  retryDelaysMs?: readonly number[];
}

/** This tab's connection to one server. The session is cached as a promise, so concurrent callers share one attempt. */
interface Link {
  session: Promise<McpSession> | null;
  retry: ReturnType<typeof setTimeout> | null;
  failures: number;
  /** The calls running on it, newest last: a server's question belongs to the newest. */
  running: ToolContext[];
}

const DEFAULT_CALL_TIMEOUT_MS = 10 * 60_000;
const DEFAULT_RETRY_DELAYS_MS = [1_000, 2_000, 5_000, 10_000, 30_000];

/**
 * The worker's MCP client side: the user's servers (stored, shared by every
 * tab), this tab's connection to each, and their tools as engine tools.
 *
 * Each tab's worker connects on its own (a connection cannot be shared across
 * workers); what they learn — status, tool lists, pinned definitions — goes
 * to the store, which every tab watches, so all tabs offer the same tools.
 */
export class McpHub {
  readonly #options: McpHubOptions;
  readonly #now: () => number;
  readonly #links = new Map<string, Link>();
  #servers: McpServerRecord[] = [];
  #tools: readonly ToolDefinition[] = [];
  #toolsKey = '';
  #stopWatching: (() => void) | null = null;
  #closed = false;

  constructor(options: McpHubOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /** Reads the stored servers (their tools are offered at once), then connects the enabled ones in the background. */
  async start(): Promise<void> {
    this.#adopt(await this.#options.store.list());
    this.#stopWatching = this.#options.store.watch((servers) => this.#adopt(servers));
  }

  /** The enabled tools of the enabled servers, for the engine: the same array until they change. */
  tools(): readonly ToolDefinition[] {
    return this.#tools;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#stopWatching?.();
    await Promise.all([...this.#links.keys()].map((id) => this.#unlink(id)));
  }

  /* ── what the user does in Settings ───────────────────────────────────── */

  async add(draft: McpServerDraft): Promise<McpServerRecord> {
    const taken = new Set(this.#servers.map((s) => s.prefix));
    const record: McpServerRecord = {
      v: 1,
      id: this.#options.newId(),
      url: draft.url,
      name: draft.name?.trim() || null,
      prefix: serverPrefix(draft.name ?? null, draft.url, taken),
      createdAt: this.#now(),
      enabled: true,
      trusted: false,
      auth: { bearerToken: draft.bearerToken?.trim() || null, headers: draft.headers ?? {} },
      status: { kind: 'connecting', since: this.#now() },
      serverInfo: null,
      tools: [],
    };
    await this.#options.store.put(record);
    this.#adopt([...this.#servers.filter((s) => s.id !== record.id), record]);
    return record;
  }

  async setEnabled(id: string, enabled: boolean): Promise<void> {
    const status: McpServerStatus = enabled ? { kind: 'connecting', since: this.#now() } : { kind: 'disconnected', at: this.#now() };
    await this.#update(id, (s) => ({ ...s, enabled, status }));
    if (!enabled) await this.#unlink(id);
    else {
      const link = this.#link(id);
      link.failures = 0;
      this.#connectSoon(id, 0);
    }
  }

  async setTrusted(id: string, trusted: boolean): Promise<void> {
    await this.#update(id, (s) => ({ ...s, trusted }));
  }

  async setToolEnabled(id: string, toolName: string, enabled: boolean): Promise<void> {
    await this.#update(id, (s) => ({ ...s, tools: s.tools.map((t) => (t.definition.name === toolName ? { ...t, enabled } : t)) }));
  }

  /** Sign in's first half: the authorization URL the page opens in a popup (or nothing to open, when a refresh did it). */
  async beginSignIn(id: string, redirectUrl: string): Promise<SignInStart> {
    const server = this.#server(id);
    const start = await this.#oauth().begin(server, redirectUrl, server.status.kind === 'needs_auth' ? server.status.resourceMetadataUrl : undefined);
    if (start.kind === 'authorized') await this.#signedIn(id, true);
    return start;
  }

  /** Sign in's second half: the callback's code and state, exchanged for tokens; then the server connects with them. */
  async finishSignIn(id: string, code: string, state: string): Promise<void> {
    await this.#oauth().finish(this.#server(id), code, state);
    await this.#signedIn(id, true);
  }

  /** Deletes this browser's tokens (revoking them where the server can), and connects again without them. */
  async signOut(id: string): Promise<SignOutResult> {
    const result = await this.#oauth().signOut(this.#server(id));
    await this.#signedIn(id, false);
    return result;
  }

  async remove(id: string): Promise<void> {
    await this.#unlink(id);
    await this.#options.oauth?.forget(id);
    await this.#options.store.remove(id);
    this.#adopt(this.#servers.filter((s) => s.id !== id));
  }

  #oauth(): HubOAuth {
    if (!this.#options.oauth) throw new Error('OAuth sign-in is not available here.');
    return this.#options.oauth;
  }

  #server(id: string): McpServerRecord {
    const server = this.#servers.find((s) => s.id === id);
    if (!server) throw new Error('That MCP server was removed.');
    return server;
  }

  /** A new session with (or without) the tokens: the old one carried the old credentials. */
  async #signedIn(id: string, oauth: boolean): Promise<void> {
    const before = this.#servers.find((s) => s.id === id)?.auth.oauth === true;
    // A change of the flag reconnects in #adopt — here and in every other tab.
    await this.#update(id, (s) => ({ ...s, auth: { ...s.auth, oauth }, ...(s.enabled ? { status: { kind: 'connecting', since: this.#now() } } : {}) }));
    if (before === oauth) await this.#reconnect(id);
  }

  /** Drops this tab's session and, if the server is enabled, opens a new one (with the credentials stored now). */
  async #reconnect(id: string): Promise<void> {
    // #unlink forgets the link at once, so the new connection gets a link of its own.
    const closing = this.#unlink(id);
    if (this.#servers.find((s) => s.id === id)?.enabled) this.#connectSoon(id, 0);
    await closing;
  }

  /* ── the store, and what follows from it ──────────────────────────────── */

  /** Takes the stored servers as they now are (from this tab or another): tools rebuilt, connections opened or closed. */
  #adopt(servers: readonly McpServerRecord[]): void {
    if (this.#closed) return;
    const before = new Map(this.#servers.map((s) => [s.id, s]));
    this.#servers = [...servers].sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
    const live = new Set(this.#servers.filter((s) => s.enabled).map((s) => s.id));
    for (const id of this.#links.keys()) if (!live.has(id)) void this.#unlink(id);
    for (const server of this.#servers) {
      if (!live.has(server.id)) continue;
      const previous = before.get(server.id);
      // Signed in or out (in any tab): this tab's session carries the old credentials, or none.
      if (this.#links.has(server.id) && previous && (previous.auth.oauth === true) !== (server.auth.oauth === true)) void this.#reconnect(server.id);
      else if (!this.#links.has(server.id)) this.#connectSoon(server.id, 0);
    }
    this.#rebuildTools();
  }

  #rebuildTools(): void {
    // Names are assigned over every stored tool, enabled or not, so switching one off renames nothing.
    const all = this.#servers.flatMap((server) => server.tools.map((tool) => ({ server, tool })));
    const key = JSON.stringify(
      all.map(({ server, tool }) => [server.id, server.prefix, server.url, server.name, server.enabled, server.trusted, tool.hash, tool.pinned.hash, tool.enabled]),
    );
    if (key === this.#toolsKey) return;
    this.#toolsKey = key;
    const names = assignToolNames(
      all.map(({ server, tool }) => ({ serverId: server.id, prefix: server.prefix, toolName: tool.definition.name })),
      this.#options.reserved,
    );
    const byTool = new Map([...names].map(([name, t]) => [`${t.serverId}\u0000${t.toolName}`, name]));
    this.#tools = all
      .filter(({ server, tool }) => server.enabled && tool.enabled)
      .map(({ server, tool }) => mcpToolDefinition(byTool.get(`${server.id}\u0000${tool.definition.name}`)!, server, tool, this.#call));
  }

  async #update(id: string, change: (server: McpServerRecord) => McpServerRecord, audit?: ServerAuditEvents): Promise<McpServerRecord | undefined> {
    const written = await this.#options.store.update(id, change, audit);
    if (written) this.#adopt(this.#servers.map((s) => (s.id === id ? written : s)));
    return written;
  }

  async #setStatus(id: string, status: McpServerStatus): Promise<void> {
    await this.#update(id, (s) => (sameStatus(s.status, status) ? s : { ...s, status }));
  }

  /* ── connections ──────────────────────────────────────────────────────── */

  #link(id: string): Link {
    let link = this.#links.get(id);
    if (!link) {
      link = { session: null, retry: null, failures: 0, running: [] };
      this.#links.set(id, link);
    }
    return link;
  }

  async #unlink(id: string): Promise<void> {
    const link = this.#links.get(id);
    if (!link) return;
    this.#links.delete(id);
    if (link.retry) clearTimeout(link.retry);
    const session = await link.session?.catch(() => null);
    await session?.close().catch(() => undefined);
  }

  #connectSoon(id: string, delayMs: number): void {
    const link = this.#link(id);
    if (link.retry) clearTimeout(link.retry);
    link.retry = setTimeout(() => {
      link.retry = null;
      this.#session(id).catch(() => undefined);
    }, delayMs);
  }

  /** This tab's session with the server, connecting (and listing its tools) first if there is none. */
  #session(id: string): Promise<McpSession> {
    const link = this.#link(id);
    link.session ??= this.#connect(id, link).catch((error: unknown) => {
      if (this.#links.get(id) === link) {
        link.session = null;
        link.failures++;
        const delays = this.#options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
        // A server that needs sign-in will not let us in by being asked again.
        if (!(error instanceof McpConnectError && error.kind === 'needs_auth')) {
          this.#connectSoon(id, delays[Math.min(link.failures - 1, delays.length - 1)] ?? 30_000);
        }
      }
      throw error;
    });
    return link.session;
  }

  async #connect(id: string, link: Link): Promise<McpSession> {
    const server = this.#servers.find((s) => s.id === id);
    if (!server?.enabled) throw new McpConnectError('failed', 'The server is disconnected; press Connect in Settings.');
    // Retries after a failure keep showing the failure (and its reason) until one succeeds: no status that flips to "connecting" and back.
    if (link.failures === 0 && server.status.kind !== 'connecting') await this.#setStatus(id, { kind: 'connecting', since: this.#now() });
    let session: McpSession | undefined;
    try {
      session = await this.#options.open(server, this.#events(id, link));
      const listed = await session.listTools().catch((error: unknown) => {
        throw connectFailure(error, server.url, 'list');
      });
      await this.#storeTools(id, listed, { kind: 'connected', at: this.#now(), transport: session.transport }, session.serverInfo);
      link.failures = 0;
      return session;
    } catch (error) {
      await session?.close().catch(() => undefined);
      const failure = connectFailure(error, server.url, 'initialize');
      await this.#setStatus(
        id,
        failure.kind === 'needs_auth'
          ? { kind: 'needs_auth', reason: failure.message, at: this.#now(), ...(failure.resourceMetadataUrl ? { resourceMetadataUrl: failure.resourceMetadataUrl } : {}) }
          : { kind: 'failed', reason: failure.message, at: this.#now() },
      );
      throw failure;
    }
  }

  /**
   * A `tools/list`'s definitions, hashed and pinned (known tools keep their pin
   * and switch), written with `status`; a known tool listed with a changed
   * definition is an audit event, stored with it.
   */
  async #storeTools(id: string, listed: readonly McpToolDefinition[], status?: McpServerStatus, serverInfo?: McpServerRecord['serverInfo']): Promise<void> {
    const hashed = await hashDefinitions(listed);
    const now = this.#now();
    await this.#update(
      id,
      (server) => ({ ...server, tools: pinTools(server.tools, hashed, now), ...(status ? { status } : {}), ...(serverInfo !== undefined ? { serverInfo } : {}) }),
      (before, after) => definitionChangeEvents(before, after, { newId: this.#options.newId, now }),
    );
  }

  #events(id: string, link: Link): SessionEvents {
    return {
      onToolsChanged: () => {
        void link.session
          ?.then((session) => session.listTools())
          .then((listed) => this.#storeTools(id, listed))
          .catch((error: unknown) => console.error('Pausepoint: re-listing an MCP server’s tools failed', error));
      },
      onLost: (reason) => {
        if (this.#links.get(id) !== link) return;
        link.session = null;
        void this.#setStatus(id, { kind: 'connecting', since: this.#now() });
        const delays = this.#options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
        this.#connectSoon(id, delays[0] ?? 1_000);
        console.warn(`Pausepoint: lost the MCP server ${id}: ${reason}`);
      },
      ...serverRequests({ asker: () => this.#asker(id, link), sample: this.#options.sample }),
    };
  }

  /* ── calls ────────────────────────────────────────────────────────────── */

  /**
   * One approved call. Running it accepts a changed definition: the card the
   * user approved showed the change. What is known of its outcome decides
   * the error: not run (a plain failure the model may work around), or
   * unknown (`OutcomeUnknown`: the user is asked, nothing is retried).
   */
  readonly #call = async (id: string, toolName: string, args: Record<string, unknown>, context: ToolContext): Promise<string> => {
    const server = this.#servers.find((s) => s.id === id);
    if (!server?.enabled) throw new Error('Not run: that MCP server is disconnected or was removed. The user can connect it in Settings.');
    const label = serverLabel(server);
    const tool = server.tools.find((t) => t.definition.name === toolName);
    if (tool && hasChanged(tool)) await this.#update(id, (s) => ({ ...s, tools: s.tools.map((t) => (t.definition.name === toolName ? acceptDefinition(t, this.#now()) : t)) }));

    const link = this.#link(id);
    link.running.push(context);
    try {
      let result: CallToolResult;
      try {
        result = await this.#callOnce(id, toolName, args, context);
      } catch (error) {
        if (!(error instanceof SessionLost)) throw error;
        // The server forgot the session (it restarted) before looking at the call: a new session, and the call once more.
        const stale = link.session;
        link.session = null;
        void stale?.then((session) => session.close()).catch(() => undefined);
        result = await this.#callOnce(id, toolName, args, context);
      }
      const formatted = formatToolResult(label, toolName, result);
      if (formatted.isError) throw new Error(`the server reported an error.\n${formatted.text}`);
      if (formatted.images.length > 0) context.showImages?.(formatted.images);
      return formatted.text;
    } catch (error) {
      if (error instanceof CallDropped) throw new OutcomeUnknown(`${error.message} (MCP server ${label})`, { cause: error });
      if (error instanceof SessionLost || error instanceof NotRun) throw new Error(`Not run: ${error.message}`, { cause: error });
      if (error instanceof McpError) throw new Error(`${label} answered with an error: ${error.message}`, { cause: error });
      throw error;
    } finally {
      link.running.splice(link.running.indexOf(context), 1);
    }
  };

  async #callOnce(id: string, toolName: string, args: Record<string, unknown>, context: ToolContext): Promise<CallToolResult> {
    let session: McpSession;
    try {
      session = await this.#session(id);
    } catch (error) {
      throw new NotRun(`the MCP server could not be reached, so the call was not sent. ${error instanceof Error ? error.message : String(error)}`);
    }
    return session.callTool(toolName, args, { signal: context.signal, timeoutMs: this.#options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS });
  }

  /** The running call a server's request belongs to (the newest on that server): its cards go to that call's conversation. */
  #asker(id: string, link: Link): Asker | null {
    const context = link.running.at(-1);
    const server = this.#servers.find((s) => s.id === id);
    return context && server ? { context, server } : null;
  }
}

function sameStatus(a: McpServerStatus, b: McpServerStatus): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'connecting') return true;
  if (a.kind === 'connected' && b.kind === 'connected') return a.transport === b.transport;
  return JSON.stringify({ ...a, at: 0 }) === JSON.stringify({ ...b, at: 0 });
}
