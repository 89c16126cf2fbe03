import { ViewToolCallAnswer } from '../mcp/view-tool-call.ts';
import type { IntentCall, SendIntent } from './agent-client.ts';
import { AgentError } from './agent-error.ts';

/**
 * The page's `callToolFromView` (MCP Apps), its answer read with its zod
 * schema. Loaded by WorkerClient on a view's first tool call: only a page that
 * shows a view pays for it. `send` here has no timeout: the worker answers once
 * the call is decided, which waits for a person as long as the card does.
 */
export function viewCall(send: SendIntent): IntentCall<'callToolFromView'> {
  return async (input, signal) => {
    const parsed = ViewToolCallAnswer.safeParse(await send({ type: 'callToolFromView', ...input }, signal));
    if (!parsed.success) throw new AgentError('ProtocolError', 'The agent worker answered a view’s tool call with something unreadable.');
    return parsed.data;
  };
}
