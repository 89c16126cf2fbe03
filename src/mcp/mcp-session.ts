import {
  ProtocolError,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  type CallToolResult,
  type Client,
  type CreateMessageRequestParams,
  type CreateMessageResult,
  type ElicitRequestFormParams,
  type ElicitRequestURLParams,
  type ElicitResult,
  type ReadResourceResult,
} from '@modelcontextprotocol/client';
import { OutcomeUnknown } from '../engine/errors.ts';
import type { TaskInput } from '../engine/records/index.ts';
import { McpToolDefinition } from '../storage/records/mcp-server-record.ts';
import { NeedsMoreAccess } from './needs-more-access.ts';
import { MAX_LISTED_TOOLS, MAX_TOOL_PAGES } from './screen-listing.ts';
import type { TaskWire } from './task-wire.ts';
import { toolVisibility } from './tool-visibility.ts';
import { uiResourceUri } from './ui-resource.ts';

export type McpTransportKind = 'streamable_http' | 'sse';

/** The definitions a `tools/list` brought, page after page, and whether the server had pages left when reading stopped at `MAX_TOOL_PAGES`. */
export interface ToolListing {
  tools: McpToolDefinition[];
  pagesLeft: boolean;
}

/** One live connection to a server, as the hub uses it. */
export interface McpSession {
  readonly transport: McpTransportKind;
  readonly serverInfo: { name: string; version: string } | null;
  /** The protocol revision spoken: 2026-07-28 (no session) or the 2025 one the `initialize` handshake agreed. */
  readonly protocolVersion: string | null;
  listTools(): Promise<ToolListing>;
  /**
   * Throws `CallDropped` (outcome unknown), `SessionLost` (not run; start a new session), `NotRun`, or `ProtocolError` (the server's answer).
   * With `onTask`, a server that offers MCP's Tasks extension may take the call as a task: `onTask` is awaited with its id before anything else is sent, then the task is followed to its end.
   */
  callTool(name: string, args: Record<string, unknown>, options: { signal: AbortSignal; timeoutMs: number; onTask?: (taskId: string) => Promise<void> }): Promise<CallToolResult>;
  /** Present when the server offers the Tasks extension: a task's end, read back (`OutcomeUnknown` when the server forgot it), and its cancellation. */
  readonly tasks?: {
    follow(taskId: string, signal: AbortSignal): Promise<CallToolResult>;
    cancel(taskId: string, signal: AbortSignal): Promise<void>;
  };
  /** `resources/read` of exactly this URI (an MCP App's `ui://` view, issue 36); the server's answer unread. */
  readResource(uri: string, options: { signal: AbortSignal }): Promise<ReadResourceResult>;
  close(): Promise<void>;
}

/** What a session tells the hub while it lives. */
export interface SessionEvents {
  /** The server said its tools changed (`notifications/tools/list_changed`). */
  onToolsChanged(): void;
  /** The connection is gone (its stream broke, or it closed). */
  onLost(reason: string): void;
  /** The server asks the user something (a form, or to open a link) while one of its tools runs; `taskInput` when one of its tasks asks (task-wire.ts). */
  onElicit(params: ElicitRequestFormParams | ElicitRequestURLParams, signal: AbortSignal, taskInput?: TaskInput): Promise<ElicitResult>;
  /** The server asks to use the user's model (`sampling/createMessage`) while one of its tools runs. */
  onSample(params: CreateMessageRequestParams, signal: AbortSignal): Promise<CreateMessageResult>;
}

/** The request left and no answer says what became of it. */
export class CallDropped extends Error {
  override readonly name = 'CallDropped';
}
/** The server no longer knows this session (it restarted): the call was not processed. */
export class SessionLost extends Error {
  override readonly name = 'SessionLost';
}
/** The call certainly did not run (refused before the server looked at it). */
export class NotRun extends Error {
  override readonly name = 'NotRun';
}

/**
 * A failed call as the engine is told of it, by what is known of its outcome:
 * unknown (`OutcomeUnknown`: the user is asked, nothing is retried), not run
 * (a plain failure the model may work around; a 403 `insufficient_scope` is
 * one, never sent again unasked), or the server's own error.
 */
export function toolCallError(error: unknown, serverLabel: string): unknown {
  if (error instanceof CallDropped) return new OutcomeUnknown(`${error.message} (MCP server ${serverLabel})`, { cause: error });
  if (error instanceof SessionLost || error instanceof NotRun) return new Error(`Not run: ${error.message}`, { cause: error });
  if (error instanceof NeedsMoreAccess) {
    return new Error(`Not run: needs more access. ${serverLabel} refused the call before running it: ${error.message}. The user can press Sign in again in Settings › MCP servers to grant it.`, { cause: error });
  }
  if (error instanceof ProtocolError) return new Error(`${serverLabel} answered with an error: ${error.message}`, { cause: error });
  return error;
}


/**
 * Tracks which calls are in flight so that a broken connection can fail them
 * at once as dropped, instead of leaving them to hang until their timeout
 * (the SDK does not fail a pending request when its stream breaks).
 */
export class InFlight {
  readonly #calls = new Set<AbortController>();

  track(): AbortController {
    const controller = new AbortController();
    this.#calls.add(controller);
    return controller;
  }

  done(controller: AbortController): void {
    this.#calls.delete(controller);
  }

  get size(): number {
    return this.#calls.size;
  }

  dropAll(reason: string): void {
    for (const controller of this.#calls) controller.abort(new CallDropped(reason));
    this.#calls.clear();
  }
}

/** A connected SDK client as a session: tool listing (every page, as the SDK reads them), and calls classified by what is known of their outcome. */
export function sessionOverClient(client: Client, transport: McpTransportKind, inFlight: InFlight, close: () => Promise<void>, tasks?: TaskWire): McpSession {
  const info = client.getServerVersion();
  /** One request tracked as in flight, its failure classified by what is known of its outcome. */
  const tracked = async <T>(signal: AbortSignal, run: (signal: AbortSignal) => Promise<T>): Promise<T> => {
    const call = inFlight.track();
    try {
      return await run(AbortSignal.any([signal, call.signal]));
    } catch (error) {
      throw classifyCallError(error, call.signal, signal);
    } finally {
      inFlight.done(call);
    }
  };
  return {
    ...(tasks
      ? {
          tasks: {
            follow: (taskId, signal) => tracked(signal, (both) => tasks.follow(taskId, both)),
            cancel: (taskId, signal) => tracked(signal, (both) => tasks.cancel(taskId, both)),
          },
        }
      : {}),
    transport,
    serverInfo: info ? { name: info.name, version: info.version } : null,
    protocolVersion: client.getNegotiatedProtocolVersion() ?? null,
    async listTools() {
      try {
        // The SDK's walk of every page (its cache, its SEP-2243 screening), bounded at MAX_TOOL_PAGES (newClient).
        return { tools: parsedTools((await client.listTools()).tools), pagesLeft: false };
      } catch (error) {
        if (!(error instanceof SdkError && error.code === SdkErrorCode.ListPaginationExceeded)) throw error;
      }
      // Past the bound the SDK's walk fails and keeps nothing: read the bounded pages one by one, to keep what they list.
      let page = await client.request({ method: 'tools/list' });
      const tools = [...page.tools];
      for (let read = 1; read < MAX_TOOL_PAGES && page.nextCursor !== undefined && tools.length <= MAX_LISTED_TOOLS; read++) {
        page = await client.listTools({ cursor: page.nextCursor });
        tools.push(...page.tools);
      }
      return { tools: parsedTools(tools), pagesLeft: page.nextCursor !== undefined && tools.length <= MAX_LISTED_TOOLS };
    },
    async callTool(name, args, { signal, timeoutMs, onTask }) {
      if (tasks && onTask) return tracked(signal, (both) => tasks.callTool(name, args, onTask, both));
      return tracked(signal, async (both) => {
        const result = await client.callTool({ name, arguments: args }, { signal: both, timeout: timeoutMs, resetTimeoutOnProgress: true, onprogress: () => {} });
        return result as CallToolResult;
      });
    },
    // Never from the SDK's cache: a view is read as the server has it now.
    readResource: (uri, { signal }) => client.readResource({ uri }, { signal, cacheMode: 'bypass' }),
    close,
  };
}

/** The definitions that parse, up to one past the count (enough to know a listing is over it: screen-listing.ts). */
function parsedTools(listed: readonly unknown[]): McpToolDefinition[] {
  const tools: McpToolDefinition[] = [];
  for (const tool of listed) {
    // MCP Apps: who may call it (`_meta.ui.visibility`), kept only when not both (tool-visibility.ts), and its view's ui:// resource.
    const meta = typeof tool === 'object' && tool !== null && '_meta' in tool ? tool._meta : undefined;
    const visibility = meta === undefined ? undefined : toolVisibility(meta);
    const viewUri = uiResourceUri(meta);
    const extra = { ...(visibility ? { visibility } : {}), ...(viewUri ? { viewUri } : {}) };
    const parsed = McpToolDefinition.safeParse(Object.keys(extra).length > 0 && typeof tool === 'object' ? { ...tool, ...extra } : tool);
    if (parsed.success) tools.push(parsed.data);
    if (tools.length > MAX_LISTED_TOOLS) break;
  }
  return tools;
}

function classifyCallError(error: unknown, dropSignal: AbortSignal, stopSignal: AbortSignal): Error {
  if (dropSignal.aborted && dropSignal.reason instanceof CallDropped) return dropSignal.reason;
  if (stopSignal.aborted) return new CallDropped('the run was stopped while the call was running; the server may already have acted.');
  if (error instanceof SdkHttpError) {
    const code = error.status;
    // A restarted server answers a session it no longer knows with 404 (the spec) or 400 (some servers).
    if (code === 404 || (code === 400 && /session/i.test(error.message))) return new SessionLost(error.message);
    if (code >= 400 && code < 500) return new NotRun(`the server refused the request (HTTP ${code}): ${error.message}`);
    return new CallDropped(`the server failed while answering (HTTP ${code}).`);
  }
  if (error instanceof ProtocolError) return error;
  if (error instanceof SdkError) {
    if (error.code === SdkErrorCode.RequestTimeout) return new CallDropped('no answer came before the time limit.');
    if (error.code === SdkErrorCode.ConnectionClosed) return new CallDropped('the connection closed while the call was running.');
  }
  // fetch's TypeError: the request may or may not have reached the server.
  if (error instanceof TypeError) return new CallDropped(`the connection failed while sending the call (${error.message}).`);
  return error instanceof Error ? error : new Error(String(error));
}
