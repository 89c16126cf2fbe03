import type { McpServerRecord } from '../storage/records/mcp-server-record.ts';
import type { McpServerStore } from './mcp-server-store.ts';
import type { McpSession, SessionEvents } from './mcp-session.ts';
import type { SignInChallenge, SignInStart, SignOutResult } from './oauth/mcp-oauth.ts';
import type { Sampler } from './server-requests.ts';

/** Opens a session with a server (over HTTP in the app, in memory in tests), telling `events` what it hears. */
export type OpenSession = (server: McpServerRecord, events: SessionEvents) => Promise<McpSession>;

/** OAuth sign-in for the servers that need it (McpOAuth in the app). */
export interface HubOAuth {
  begin(server: McpServerRecord, redirectUrl: string, challenge?: SignInChallenge): Promise<SignInStart>;
  finish(server: McpServerRecord, code: string, state: string, iss: string | null): Promise<void>;
  signOut(server: McpServerRecord): Promise<SignOutResult>;
  forget(serverId: string): Promise<void>;
}

/** What a hub works with: the stored servers, how to open a session, OAuth and the sampler where the app has them. */
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
