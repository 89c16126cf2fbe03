import type { EngineContext } from './engine-context.ts';
import { cardDeadline } from './pause-expiry.ts';
import { riskOfPause } from './risk-label.ts';
import type { PauseRequest } from './tool-definition.ts';
import type { AssistantMessage, PausePoint, ToolCall } from './records/index.ts';

/**
 * A new pending pause point for a call. The expiry is read from the settings
 * now, as the card is made, so every run — one recovered by another tab
 * before it ever called the model included — gives its cards the configured time.
 * It carries the tool's definition hash (and, for an MCP tool, its server), so
 * every card and every rule decision says what exactly was decided about, and
 * the call's risk label (risk-label.ts).
 */
export async function pausePointFor(
  ctx: EngineContext,
  message: AssistantMessage,
  call: ToolCall,
  request: PauseRequest,
  origin: PausePoint['origin'],
): Promise<PausePoint> {
  // What the audit log says the call was made to: the tool as the model was given it (and, for MCP, which server's tool).
  const definitionHash = await ctx.tools.definitionHash(call.name);
  const tool = ctx.tools.get(call.name);
  const mcp = tool?.mcp;
  const now = ctx.clock.now();
  const deadline = await cardDeadline(ctx, now);
  return {
    v: 1,
    id: ctx.ids.uuid(),
    conversationId: message.conversationId,
    turnIndex: message.turnIndex,
    title: request.title,
    description: request.description,
    options: request.options,
    payload: request.payload ?? null,
    kind: request.kind,
    status: 'pending',
    resolution: null,
    resolvedAt: null,
    createdAt: now,
    origin,
    toolCallId: call.id,
    toolName: call.name,
    ...deadline,
    ...(definitionHash === undefined ? {} : { definitionHash }),
    ...(mcp === undefined ? {} : { mcp: { ...mcp } }),
    // Every card and rule decision of a view's call says the view proposed it, not the model (decision-view.ts, the audit log).
    ...(message.fromView ? { fromView: message.fromView } : {}),
    // The label is the call's as the card is made: the record, not today's tool, is what the audit log shows.
    risk: riskOfPause(tool, { origin, kind: request.kind, payload: request.payload ?? null }),
    ...(request.taskInput ? { taskInput: { ...request.taskInput } } : {}),
  };
}

/** Stores a pause point at once (rather than with the paused state) and tells the host. Returns its id. */
export async function createPause(
  ctx: EngineContext,
  message: AssistantMessage,
  call: ToolCall,
  request: PauseRequest,
  origin: PausePoint['origin'],
): Promise<string> {
  const pause = await pausePointFor(ctx, message, call, request, origin);
  await ctx.storage.createPausePoint(pause);
  ctx.onPause(pause);
  return pause.id;
}
