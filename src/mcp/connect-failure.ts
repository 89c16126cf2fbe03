import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError, SseError, UnauthorizedError } from '@modelcontextprotocol/client';
import type { McpServerStatus } from '../storage/records/mcp-server-record.ts';
import { NeedsMoreAccess } from './needs-more-access.ts';
import { SignInNeeded } from './oauth/stored-oauth-provider.ts';

/** What a server must send for a page to talk to it: the README lists the same. */
export const CORS_REQUIREMENTS =
  'It must answer OPTIONS preflights and send Access-Control-Allow-Origin (this page’s origin, or *), ' +
  'allow the request headers content-type, mcp-session-id, mcp-protocol-version, mcp-method, mcp-name, authorization and last-event-id ' +
  '(Access-Control-Allow-Headers), and expose mcp-session-id (Access-Control-Expose-Headers).';

/** Why a server could not be connected, in words that say what to change. `refused`: this browser will not try (no retry). */
export class McpConnectError extends Error {
  override readonly name = 'McpConnectError';
  constructor(
    /** `needs_scope`: signed in, but a 403 `insufficient_scope` asks for more than the sign-in gave. */
    readonly kind: 'needs_auth' | 'needs_scope' | 'failed' | 'refused',
    message: string,
    /** What the server's 401 or 403 said (WWW-Authenticate), for Sign in: where its metadata is, and the scope it wants. */
    readonly challenge: AuthChallenge = {},
  ) {
    super(message);
  }
}

/** What a 401 or 403's WWW-Authenticate said: RFC 9728 `resource_metadata`, RFC 6750 `scope`. */
export interface AuthChallenge {
  resourceMetadataUrl?: string | undefined;
  scope?: string | undefined;
}

/** The status a server shows after `failure`: it needs sign-in or more access (and what its challenge said), or it failed, and why. */
export function failureStatus(failure: McpConnectError, at: number): McpServerStatus {
  const { resourceMetadataUrl, scope } = failure.challenge;
  const where = resourceMetadataUrl ? { resourceMetadataUrl } : {};
  if (failure.kind === 'needs_scope') return { kind: 'needs_scope', reason: failure.message, at, scope: scope ?? '', ...where };
  if (failure.kind !== 'needs_auth') return { kind: 'failed', reason: failure.message, at };
  return { kind: 'needs_auth', reason: failure.message, at, ...where, ...(scope ? { scope } : {}) };
}

/** The sentence a server's status and a refused call give when the server asks for more access. */
export function needsMoreAccessMessage(origin: string, error: NeedsMoreAccess): string {
  return `${origin} says ${error.message}. Press Sign in again to grant it.`;
}

/**
 * Browsers give one TypeError for a refused connection, a DNS failure and a
 * CORS refusal alike, so a failure is explained by when it happened: the
 * first request (nothing answered, or CORS refused the page), or a later one
 * after the first worked (the server allows the first request's headers but
 * not the session's, or hides its session id).
 */
export function connectFailure(error: unknown, url: string, phase: 'initialize' | 'list'): McpConnectError {
  if (error instanceof McpConnectError) return error;
  const origin = new URL(url).origin;
  if (error instanceof NeedsMoreAccess) {
    return new McpConnectError('needs_scope', needsMoreAccessMessage(origin, error), { resourceMetadataUrl: error.resourceMetadataUrl, scope: error.scope });
  }
  // The SDK's OAuth flow gave up (no tokens, or a refresh that failed): only the user can sign in again.
  if (error instanceof SignInNeeded || error instanceof UnauthorizedError) {
    // The reason is a sentence of its own (it may end with a full stop): one stop before "Press Sign in", not two.
    const reason = shortMessage(error).replace(/[.\s]+$/, '') || 'its tokens are no longer accepted';
    return new McpConnectError('needs_auth', `${origin} asks for sign-in: ${reason}. Press Sign in.`);
  }
  const code = httpStatus(error);
  if (code === 401 || code === 403) {
    return new McpConnectError(
      'needs_auth',
      `${origin} asks for sign-in (HTTP ${code}). Press Sign in (OAuth), or remove it and add it again with a bearer token.`,
    );
  }
  if (code !== undefined && code >= 400 && /session|not initialized/i.test(String((error as Error).message))) {
    return new McpConnectError(
      'failed',
      `${origin} answered the first request but did not recognise the session on the next: it must expose the mcp-session-id header to this page (Access-Control-Expose-Headers: mcp-session-id). ${CORS_REQUIREMENTS}`,
    );
  }
  if (code !== undefined && code > 0) return new McpConnectError('failed', `${origin} refused the connection (HTTP ${code}): ${shortMessage(error)}`);
  if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
    return new McpConnectError('failed', `${origin} did not answer within 15 seconds. Check that the server is running and that the URL is its MCP endpoint.`);
  }
  if (error instanceof TypeError || /fetch|network|SSE error/i.test(shortMessage(error))) {
    return new McpConnectError(
      'failed',
      phase === 'initialize'
        ? `Could not reach ${url}: the server is down, the address is wrong, or it does not allow requests from this page (CORS). ${CORS_REQUIREMENTS}`
        : `${origin} answered the first request but refused the next one, which carries the session headers: it does not allow them from this page (CORS). ${CORS_REQUIREMENTS}`,
    );
  }
  return new McpConnectError('failed', `Could not connect to ${origin}: ${shortMessage(error)}`);
}

/** The HTTP status a failure carries: the Streamable HTTP transport's on `status`, the legacy SSE one's on a numeric `code`. */
function httpStatus(error: unknown): number | undefined {
  if (error instanceof SdkHttpError) return error.status;
  if (error instanceof SseError) return error.code ?? undefined;
  const code: unknown = error instanceof Error && !(error instanceof ProtocolError) && !(error instanceof SdkError) ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'number' ? code : undefined;
}

function shortMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
