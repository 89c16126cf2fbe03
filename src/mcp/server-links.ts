import { connectFailure, failureStatus, McpConnectError } from './connect-failure.ts';
import { hashDefinitions, pinTools } from './definition-pin.ts';
import { definitionChangeEvents } from './definition-change-events.ts';
import type { McpHubOptions } from './mcp-hub-options.ts';
import type { McpServerRecord, McpServerStatus } from '../storage/records/mcp-server-record.ts';
import type { ServerAuditEvents } from './mcp-server-store.ts';
import type { McpSession, SessionEvents, ToolListing } from './mcp-session.ts';
import type { ToolContext } from '../engine/tool-definition.ts';
import { serverRequests, type Asker } from './server-requests.ts';
import { keptRefusals, screenListing, withinPinRoom } from './screen-listing.ts';
import { plainHttpAllowed } from '../storage/endpoint-origin.ts';
import { PLAIN_HTTP_MCP_REFUSED } from './plain-http-refused.ts';

/** This tab's connection to one server. The session is cached as a promise, so concurrent callers share one attempt. */
export interface Link {
  session: Promise<McpSession> | null;
  retry: ReturnType<typeof setTimeout> | null;
  failures: number;
  /** The calls running on it, newest last: a server's question belongs to the newest. */
  running: ToolContext[];
}

/** What the links read and write of the hub's stored servers. */
export interface LinkHost {
  readonly options: McpHubOptions;
  now(): number;
  find(id: string): McpServerRecord | undefined;
  update(id: string, change: (server: McpServerRecord) => McpServerRecord, audit?: ServerAuditEvents): Promise<McpServerRecord | undefined>;
  setStatus(id: string, status: McpServerStatus): Promise<void>;
}

const DEFAULT_RETRY_DELAYS_MS = [1_000, 2_000, 5_000, 10_000, 30_000];

/**
 * This tab's connections to the hub's servers (mcp-hub.ts): one link a
 * server, connected on demand, listing its tools into the store on connect
 * and whenever the server says they changed, reconnecting after a failure on
 * a backoff, and routing a server's requests to the call they belong to.
 */
export class ServerLinks {
  readonly #host: LinkHost;
  readonly #links = new Map<string, Link>();

  constructor(host: LinkHost) {
    this.#host = host;
  }

  /** The servers this tab has a link to. */
  ids(): string[] {
    return [...this.#links.keys()];
  }

  has(id: string): boolean {
    return this.#links.has(id);
  }

  link(id: string): Link {
    let link = this.#links.get(id);
    if (!link) {
      link = { session: null, retry: null, failures: 0, running: [] };
      this.#links.set(id, link);
    }
    return link;
  }

  async unlink(id: string): Promise<void> {
    const link = this.#links.get(id);
    if (!link) return;
    this.#links.delete(id);
    if (link.retry) clearTimeout(link.retry);
    const session = await link.session?.catch(() => null);
    await session?.close().catch(() => undefined);
  }

  connectSoon(id: string, delayMs: number): void {
    const link = this.link(id);
    if (link.retry) clearTimeout(link.retry);
    link.retry = setTimeout(() => {
      link.retry = null;
      this.session(id).catch(() => undefined);
    }, delayMs);
  }

  /** The wait before reconnecting after the `n`th failure in a row; the last delay repeats. */
  retryDelay(n: number): number {
    const { retryDelaysMs } = this.#host.options;
    const delays = retryDelaysMs?.length ? retryDelaysMs : DEFAULT_RETRY_DELAYS_MS;
    return delays[Math.min(n, delays.length) - 1]!;
  }

  /** This tab's session with the server, connecting (and listing its tools) first if there is none. */
  session(id: string): Promise<McpSession> {
    const link = this.link(id);
    link.session ??= this.#connect(id, link).catch((error: unknown) => {
      if (this.#links.get(id) === link) {
        link.session = null;
        link.failures++;
        // A server that needs sign-in will not let us in by being asked again, nor will one this browser refuses.
        if (!(error instanceof McpConnectError && error.kind !== 'failed')) this.connectSoon(id, this.retryDelay(link.failures));
      }
      throw error;
    });
    return link.session;
  }

  async #connect(id: string, link: Link): Promise<McpSession> {
    const host = this.#host;
    const server = host.find(id);
    if (!server?.enabled) throw new McpConnectError('failed', 'The server is disconnected; press Connect in Settings.');
    if (!plainHttpAllowed(server.url)) {
      // Stored before plain http was refused for other hosts: never connected, and the status says why.
      const refused = new McpConnectError('refused', PLAIN_HTTP_MCP_REFUSED);
      await host.setStatus(id, failureStatus(refused, host.now()));
      throw refused;
    }
    // Retries after a failure keep showing the failure (and its reason) until one succeeds: no status that flips to "connecting" and back.
    if (link.failures === 0 && server.status.kind !== 'connecting') await host.setStatus(id, { kind: 'connecting', since: host.now() });
    let session: McpSession | undefined;
    try {
      session = await host.options.open(server, this.#events(id, link));
      const listed = await session.listTools().catch((error: unknown) => {
        throw connectFailure(error, server.url, 'list');
      });
      // Dropped while it connected (signed in or out, views turned on or off, removed): its session carries the
      // old credentials, and the link that replaced it says the server's state. Written anyway, a sign-in's
      // "connected" could land after the sign-out's "needs sign-in" and hide it.
      if (this.#links.get(id) !== link) throw new McpConnectError('failed', 'This connection was replaced by a newer one.');
      await this.#storeTools(id, listed, { kind: 'connected', at: host.now(), transport: session.transport, ...(session.protocolVersion ? { protocol: session.protocolVersion } : {}) }, session.serverInfo);
      link.failures = 0;
      return session;
    } catch (error) {
      await session?.close().catch(() => undefined);
      if (this.#links.get(id) !== link) throw error; // the newer link's status stands
      const failure = connectFailure(error, server.url, 'initialize');
      await host.setStatus(id, failureStatus(failure, host.now()));
      throw failure;
    }
  }

  /**
   * A `tools/list`'s definitions, screened (what a server may list), hashed
   * and pinned (known tools keep their pin and switch; those it left out stay
   * with theirs), written with `status` and why any were refused; a known
   * tool listed with a changed definition is an audit event, stored with it.
   */
  async #storeTools(id: string, listed: ToolListing, status?: McpServerStatus, serverInfo?: McpServerRecord['serverInfo']): Promise<void> {
    const { options } = this.#host;
    const server = this.#host.find(id);
    if (!server) return;
    const screened = screenListing(listed.tools, server, options.reserved, listed.pagesLeft);
    const hashed = await hashDefinitions(screened.taken);
    const now = this.#host.now();
    await this.#host.update(
      id,
      (stored) => {
        const room = withinPinRoom(stored.tools, hashed);
        const refusals = keptRefusals([...screened.refusals, ...room.refusals]);
        const { refusals: _before, ...rest } = stored;
        return {
          ...rest,
          tools: pinTools(stored.tools, room.fits, now),
          ...(refusals.length > 0 ? { refusals } : {}),
          ...(status ? { status } : {}),
          ...(serverInfo !== undefined ? { serverInfo } : {}),
        };
      },
      (before, after) => definitionChangeEvents(before, after, { newId: options.newId, now }),
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
        void this.#host.setStatus(id, { kind: 'connecting', since: this.#host.now() });
        this.connectSoon(id, this.retryDelay(1));
        console.warn(`Pausepoint: lost the MCP server ${id}: ${reason}`);
      },
      ...serverRequests({ asker: () => this.#asker(id, link), sample: this.#host.options.sample }),
    };
  }

  /** The running call a server's request belongs to (the newest on that server): its cards go to that call's conversation. */
  #asker(id: string, link: Link): Asker | null {
    const context = link.running.at(-1);
    const server = this.#host.find(id);
    return context && server ? { context, server } : null;
  }
}
