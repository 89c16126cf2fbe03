import type { SignInStart, SignOutResult } from '../mcp/oauth/mcp-oauth.ts';
import type { ViewResource } from '../mcp/ui-resource.ts';
import type { IntentCall, McpControl, SendIntent } from './agent-client.ts';
import type { IntentInput } from './protocol.ts';
import { AgentError } from './agent-error.ts';
import { isObject, isString } from './worker-guards.ts';

/**
 * The page's MCP calls (client.mcp), each answer read by a hand-written guard
 * as WorkerClient reads the others. Loaded by WorkerClient on the first MCP
 * call: only Settings › MCP servers makes them, so start-up does not pay for them.
 */
/** With MCP Apps' `callToolFromView`, which WorkerClient has beside `mcp` (the bridge calls it, not Settings). */
export type McpCalls = McpControl & { readonly callToolFromView: IntentCall<'callToolFromView'> };

export function mcpCalls(send: SendIntent): McpCalls {
  const nothing = async (intent: IntentInput, signal?: AbortSignal) => void (await send(intent, signal));
  return {
    add: async (draft, signal) => readServerId(await send({ type: 'mcpAdd', ...draft }, signal)),
    setEnabled: (serverId, enabled, signal) => nothing({ type: 'mcpSetEnabled', serverId, enabled }, signal),
    setTrusted: (serverId, trusted, signal) => nothing({ type: 'mcpSetTrusted', serverId, trusted }, signal),
    setToolEnabled: (serverId, toolName, enabled, signal) => nothing({ type: 'mcpSetToolEnabled', serverId, toolName, enabled }, signal),
    remove: (serverId, signal) => nothing({ type: 'mcpRemove', serverId }, signal),
    beginSignIn: async (serverId, redirectUrl, signal) => readSignInStart(await send({ type: 'mcpBeginSignIn', serverId, redirectUrl }, signal)),
    finishSignIn: (serverId, code, state, iss, signal) => nothing({ type: 'mcpFinishSignIn', serverId, code, state, iss }, signal),
    cancelTask: (conversationId, toolCallId, signal) => nothing({ type: 'mcpCancelTask', conversationId, toolCallId }, signal),
    signOut: async (serverId, signal) => readSignOut(await send({ type: 'mcpSignOut', serverId }, signal)),
    setShowViews: (serverId, on, signal) => nothing({ type: 'mcpSetShowViews', serverId, on }, signal),
    readView: async (serverId, resourceUri, signal) => readViewResource(await send({ type: 'mcpReadView', serverId, resourceUri }, signal)),
    // Its answer's zod schema comes with a view's first call: Settings › MCP servers does not pay for it.
    callToolFromView: (input, signal) => import('./view-calls.ts').then(({ viewCall }) => viewCall((intent, s) => send(intent, s, 0))(input, signal)),
  };
}

function readViewResource(value: unknown): ViewResource {
  // The worker parsed it with the ViewResource schema; here the shape only, as for the other answers (no zod on this path).
  if (isObject(value) && isString(value.html) && isObject(value.csp) && (value.prefersBorder === undefined || typeof value.prefersBorder === 'boolean')) return value as ViewResource;
  throw new AgentError('ProtocolError', 'The agent worker answered with something that is not a view.');
}

function readServerId(value: unknown): { serverId: string } {
  if (isObject(value) && isString(value.serverId)) return { serverId: value.serverId };
  throw new AgentError('ProtocolError', 'The agent worker did not say which server it added.');
}

function readSignInStart(value: unknown): SignInStart {
  if (isObject(value) && value.kind === 'authorized') return { kind: 'authorized' };
  if (isObject(value) && value.kind === 'redirect' && isString(value.authorizationUrl) && isString(value.state)) {
    return { kind: 'redirect', authorizationUrl: value.authorizationUrl, state: value.state };
  }
  throw new AgentError('ProtocolError', 'The agent worker did not say where to sign in.');
}

const SIGNED_OUT: ReadonlySet<unknown> = new Set(['yes', 'no_tokens', 'no_endpoint']);

function readSignOut(value: unknown): SignOutResult {
  if (isObject(value) && SIGNED_OUT.has(value.revoked)) return { revoked: value.revoked as Exclude<SignOutResult['revoked'], 'failed'> };
  if (isObject(value) && value.revoked === 'failed' && isString(value.reason)) return { revoked: 'failed', reason: value.reason };
  throw new AgentError('ProtocolError', 'The agent worker did not say what Sign out did.');
}
