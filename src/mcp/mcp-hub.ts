import type { CallToolResult } from '@modelcontextprotocol/client';
import { viewResource, type ViewResource } from './ui-resource.ts';
import { toolView } from './tool-view.ts';
import type { ToolContext, ToolDefinition } from '../engine/tool-definition.ts';
import { OutcomeUnknown } from '../engine/errors.ts';
import { connectFailure, failureStatus } from './connect-failure.ts';
import { acceptDefinition, hasChanged, isListed } from './definition-pin.ts';
import { formatToolResult } from './format-tool-result.ts';
import { newServerRecord, type McpServerDraft } from './mcp-server-draft.ts';
import { sameStatus, type McpServerRecord, type McpServerStatus } from '../storage/records/mcp-server-record.ts';
import type { HubOAuth, McpHubOptions } from './mcp-hub-options.ts';
import type { ServerAuditEvents } from './mcp-server-store.ts';
import type { SignInChallenge, SignInStart, SignOutResult } from './oauth/mcp-oauth.ts';
import { NeedsMoreAccess } from './needs-more-access.ts';
import { NotRun, SessionLost, toolCallError, type McpSession } from './mcp-session.ts';
import { mcpTools, serverLabel, type McpTaskCalls } from './mcp-tool.ts';
import { urlElicitationRequired } from './server-requests.ts';
import { lostConnection, readTaskBack } from './read-task-back.ts';
import { ServerLinks, type Link } from './server-links.ts';
import { serverPrefix } from './tool-names.ts';

const DEFAULT_CALL_TIMEOUT_MS = 10 * 60_000;

/**
 * The worker's MCP client side: the user's servers (stored, shared by every
 * tab), this tab's connection to each (server-links.ts), and their tools as
 * engine tools.
 *
 * Each tab's worker connects on its own (a connection cannot be shared across
 * workers); what they learn — status, tool lists, pinned definitions — goes
 * to the store, which every tab watches, so all tabs offer the same tools.
 */
export class McpHub {
  readonly #options: McpHubOptions;
  readonly #now: () => number;
  readonly #links: ServerLinks;
  #servers: McpServerRecord[] = [];
  #tools: readonly ToolDefinition[] = [];
  #toolsKey = '';
  #stopWatching: (() => void) | null = null;
  #closed = false;

  constructor(options: McpHubOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#links = new ServerLinks({
      options,
      now: this.#now,
      find: (id) => this.#find(id),
      update: (id, change, audit) => this.#update(id, change, audit),
      setStatus: (id, status) => this.#setStatus(id, status),
    });
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
    await Promise.all(this.#links.ids().map((id) => this.#links.unlink(id)));
  }

  /* ── what the user does in Settings ───────────────────────────────────── */

  async add(draft: McpServerDraft): Promise<McpServerRecord> {
    const prefix = serverPrefix(draft.name ?? null, draft.url, new Set(this.#servers.map((s) => s.prefix)));
    const record = newServerRecord(draft, { id: this.#options.newId(), prefix, now: this.#now() });
    await this.#options.store.put(record);
    this.#adopt([...this.#servers.filter((s) => s.id !== record.id), record]);
    return record;
  }

  async setEnabled(id: string, enabled: boolean): Promise<void> {
    const status: McpServerStatus = enabled ? { kind: 'connecting', since: this.#now() } : { kind: 'disconnected', at: this.#now() };
    await this.#update(id, (s) => ({ ...s, enabled, status }));
    if (!enabled) await this.#links.unlink(id);
    else {
      const link = this.#link(id);
      link.failures = 0;
      this.#links.connectSoon(id, 0);
    }
  }

  async setTrusted(id: string, trusted: boolean): Promise<void> {
    await this.#update(id, (s) => ({ ...s, trusted }));
  }

  /** `Show interactive views` (MCP Apps): the extension is advertised only while on, so a change reconnects (in #adopt, in every tab). */
  async setShowViews(id: string, on: boolean): Promise<void> {
    await this.#update(id, ({ showViews: _was, ...s }) => (on ? s : { ...s, showViews: false }));
  }

  /**
   * The HTML of a call's view: `resources/read` of exactly the `ui://`
   * resource its tool's definition declared (the page names it from the
   * stored result, and only a URI one of the server's tools declares is read).
   */
  async readView(id: string, resourceUri: string, signal: AbortSignal): Promise<ViewResource> {
    const server = this.#server(id);
    if (server.showViews === false) throw new Error(`Interactive views are off for ${serverLabel(server)}.`);
    if (!server.tools.some((t) => t.definition.viewUri === resourceUri)) throw new Error(`No tool of ${serverLabel(server)} declares the view ${resourceUri}.`);
    return viewResource(await (await this.#session(id)).readResource(resourceUri, { signal }), resourceUri);
  }

  async setToolEnabled(id: string, toolName: string, enabled: boolean): Promise<void> {
    await this.#update(id, (s) => ({ ...s, tools: s.tools.map((t) => (t.definition.name === toolName ? { ...t, enabled } : t)) }));
  }

  /** Sign in's first half: the authorization URL the page opens in a popup (or nothing to open, when a refresh did it). */
  async beginSignIn(id: string, redirectUrl: string): Promise<SignInStart> {
    const server = this.#server(id);
    const { status } = server;
    // What the server's 401 or 403 asked for; after a 403, the scopes held are asked for again with the new ones.
    const challenge: SignInChallenge =
      status.kind === 'needs_scope'
        ? { resourceMetadataUrl: status.resourceMetadataUrl, scope: status.scope, stepUp: true }
        : status.kind === 'needs_auth'
          ? { resourceMetadataUrl: status.resourceMetadataUrl, scope: status.scope }
          : {};
    const start = await this.#oauth().begin(server, redirectUrl, challenge);
    if (start.kind === 'authorized') await this.#signedIn(id, true);
    return start;
  }

  /** Sign in's second half: the callback's code, state and `iss` (RFC 9207), exchanged for tokens; then the server connects with them. */
  async finishSignIn(id: string, code: string, state: string, iss: string | null = null): Promise<void> {
    await this.#oauth().finish(this.#server(id), code, state, iss);
    await this.#signedIn(id, true);
  }

  /** Deletes this browser's tokens (revoking them where the server can), and connects again without them. */
  async signOut(id: string): Promise<SignOutResult> {
    const result = await this.#oauth().signOut(this.#server(id));
    await this.#signedIn(id, false);
    return result;
  }

  async remove(id: string): Promise<void> {
    await this.#links.unlink(id);
    await this.#options.oauth?.forget(id);
    await this.#options.store.remove(id);
    this.#adopt(this.#servers.filter((s) => s.id !== id));
  }

  #oauth(): HubOAuth {
    if (!this.#options.oauth) throw new Error('OAuth sign-in is not available here.');
    return this.#options.oauth;
  }

  #find(id: string): McpServerRecord | undefined {
    return this.#servers.find((s) => s.id === id);
  }

  #server(id: string): McpServerRecord {
    const server = this.#find(id);
    if (!server) throw new Error('That MCP server was removed.');
    return server;
  }

  /** A new session with (or without) the tokens: the old one carried the old credentials. */
  async #signedIn(id: string, oauth: boolean): Promise<void> {
    const before = this.#find(id)?.auth.oauth === true;
    // A change of the flag reconnects in #adopt — here and in every other tab.
    await this.#update(id, (s) => ({ ...s, auth: { ...s.auth, oauth }, ...(s.enabled ? { status: { kind: 'connecting', since: this.#now() } } : {}) }));
    if (before === oauth) await this.#reconnect(id);
  }

  /** Drops this tab's session and, if the server is enabled, opens a new one (with the credentials stored now). */
  async #reconnect(id: string): Promise<void> {
    // unlink forgets the link at once, so the new connection gets a link of its own.
    const closing = this.#links.unlink(id);
    if (this.#find(id)?.enabled) this.#links.connectSoon(id, 0);
    await closing;
  }

  /* ── the store, and what follows from it ──────────────────────────────── */

  /** Takes the stored servers as they now are (from this tab or another): tools rebuilt, connections opened or closed. */
  #adopt(servers: readonly McpServerRecord[]): void {
    if (this.#closed) return;
    const before = new Map(this.#servers.map((s) => [s.id, s]));
    this.#servers = [...servers].sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
    const live = new Set(this.#servers.filter((s) => s.enabled).map((s) => s.id));
    for (const id of this.#links.ids()) if (!live.has(id)) void this.#links.unlink(id);
    for (const server of this.#servers) {
      if (!live.has(server.id)) continue;
      const previous = before.get(server.id);
      // Signed in or out, or views turned on or off (the extension is advertised when connecting): a new session.
      const changed = previous && ((previous.auth.oauth === true) !== (server.auth.oauth === true) || (previous.showViews === false) !== (server.showViews === false));
      if (this.#links.has(server.id) && changed) void this.#reconnect(server.id);
      else if (!this.#links.has(server.id)) this.#links.connectSoon(server.id, 0);
    }
    this.#rebuildTools();
  }

  #rebuildTools(): void {
    // Everything a tool's name, card or gate is made of: while it stays the same, so does the array the engine holds.
    const key = JSON.stringify(
      this.#servers.flatMap((server) =>
        server.tools.map((tool) => [server.id, server.prefix, server.url, server.name, server.enabled, server.trusted, tool.definition.name, tool.hash, tool.pinned.hash, tool.enabled, tool.listed]),
      ),
    );
    if (key === this.#toolsKey) return;
    this.#toolsKey = key;
    this.#tools = mcpTools(this.#servers, this.#options.reserved, this.#call, this.#tasks);
  }

  async #update(id: string, change: (server: McpServerRecord) => McpServerRecord, audit?: ServerAuditEvents): Promise<McpServerRecord | undefined> {
    const written = await this.#options.store.update(id, change, audit);
    if (written) this.#adopt(this.#servers.map((s) => (s.id === id ? written : s)));
    return written;
  }

  async #setStatus(id: string, status: McpServerStatus): Promise<void> {
    await this.#update(id, (s) => (sameStatus(s.status, status) ? s : { ...s, status }));
  }

  /* ── connections (server-links.ts) ───────────────────────────────────── */

  #link(id: string): Link {
    return this.#links.link(id);
  }

  #session(id: string): Promise<McpSession> {
    return this.#links.session(id);
  }

  /* ── calls ────────────────────────────────────────────────────────────── */

  /**
   * One approved call, of the definition it was decided on (`definitionHash`).
   * Running it accepts a changed definition: the card the user approved (or
   * the rule they made on it) was for that one. A tool the server changed or
   * dropped since is not run: the model is told, and its next call asks about
   * the tool as it is then. A failure is told to the engine by what is known
   * of its outcome (`toolCallError`).
   */
  readonly #call = async (id: string, toolName: string, definitionHash: string, args: Record<string, unknown>, context: ToolContext): Promise<string> => {
    const server = this.#find(id);
    if (!server?.enabled) throw new Error('Not run: that MCP server is disconnected or was removed. The user can connect it in Settings.');
    const label = serverLabel(server);
    const tool = server.tools.find((t) => t.definition.name === toolName);
    if (!tool || !isListed(tool) || tool.hash !== definitionHash) {
      throw toolCallError(new NotRun(`the server changed or removed the tool ${toolName} after this call was decided, so it was not sent. A new call will show the tool as it is now.`), label);
    }
    if (hasChanged(tool)) await this.#update(id, (s) => ({ ...s, tools: s.tools.map((t) => (t.definition.name === toolName && t.hash === definitionHash ? acceptDefinition(t, this.#now()) : t)) }));

    const link = this.#link(id);
    link.running.push(context);
    // Set once the server took the call as a task and its id is on the ledger.
    let taskId: string | undefined;
    const tookTask = (task: string) => void (taskId = task);
    try {
      let result: CallToolResult;
      try {
        result = await this.#callOnce(id, toolName, args, context, tookTask);
      } catch (error) {
        // The connection dropped while its task was followed: the task goes on on the server, and is read back from there.
        if (taskId !== undefined && !context.signal.aborted && lostConnection(error)) {
          return this.#formatted(label, toolName, await readTaskBack(this.#links, id, label, taskId, context.signal, error), context);
        }
        if (!(error instanceof SessionLost)) throw error;
        // The server forgot the session (it restarted) before looking at the call: a new session, and the call once more.
        const stale = link.session;
        link.session = null;
        void stale?.then((session) => session.close()).catch(() => undefined);
        result = await this.#callOnce(id, toolName, args, context, tookTask);
      }
      const view = toolView(server, tool.definition, args, result);
      if (view) context.showView?.(view);
      return this.#formatted(label, toolName, result, context);
    } catch (error) {
      // Not run, and not sent again: the server's status asks the user to Sign in again (the one prompt this call makes).
      if (error instanceof NeedsMoreAccess) await this.#setStatus(id, failureStatus(connectFailure(error, server.url, 'list'), this.#now()));
      // The server refused until the user opens a link (-32042): a URL card, as for a URL-mode elicitation.
      throw (await urlElicitationRequired({ context, server }, error)) ?? toolCallError(error, label);
    } finally {
      link.running.splice(link.running.indexOf(context), 1);
    }
  };

  #formatted(label: string, toolName: string, result: CallToolResult, context: ToolContext): string {
    const formatted = formatToolResult(label, toolName, result);
    if (formatted.isError) throw new Error(`the server reported an error.\n${formatted.text}`);
    if (formatted.images.length > 0) context.showImages?.(formatted.images);
    // A view's call (MCP Apps): the view is answered with the result as the server gave it, not the model's text.
    context.keepResultForView?.(JSON.stringify(result));
    return formatted.text;
  }

  /**
   * A call its server runs as a task, after the run that sent it is gone: its
   * end read back with `tasks/get` (the session's, connecting if need be),
   * never sent again. Its questions are cards of the call, as when it ran.
   */
  readonly #tasks: McpTaskCalls = {
    follow: async (id, toolName, taskId, context) => {
      const server = this.#find(id);
      if (!server) throw new OutcomeUnknown(`the MCP server that runs its task ${taskId} was removed, so its outcome cannot be read back.`);
      const label = serverLabel(server);
      const link = this.#link(id);
      link.running.push(context);
      try {
        return this.#formatted(label, toolName, await readTaskBack(this.#links, id, label, taskId, context.signal), context);
      } catch (error) {
        throw toolCallError(error, label);
      } finally {
        link.running.splice(link.running.indexOf(context), 1);
      }
    },
    cancel: async (id, taskId) => {
      const tasks = (await this.#session(id)).tasks;
      if (!tasks) throw new Error('This MCP server no longer offers tasks, so its task cannot be cancelled from here.');
      await tasks.cancel(taskId, AbortSignal.timeout(this.#options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS));
    },
  };

  async #callOnce(id: string, toolName: string, args: Record<string, unknown>, context: ToolContext, onTask: (taskId: string) => void): Promise<CallToolResult> {
    let session: McpSession;
    try {
      session = await this.#session(id);
    } catch (error) {
      throw new NotRun(`the MCP server could not be reached, so the call was not sent. ${error instanceof Error ? error.message : String(error)}`);
    }
    const recordTask = context.recordTask;
    return session.callTool(toolName, args, {
      signal: context.signal,
      timeoutMs: this.#options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
      // A task only where its id can be kept on the ledger (the engine's run does): else the server runs it as a plain call.
      ...(recordTask ? { onTask: (taskId: string) => recordTask({ id: taskId }).then(() => onTask(taskId)) } : {}),
    });
  }
}
