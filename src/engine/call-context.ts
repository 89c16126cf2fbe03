import type { EngineContext } from './engine-context.ts';
import { createPause } from './pause-for-call.ts';
import type { PauseRequest, ToolContext } from './tool-definition.ts';
import { MAX_APP_RESULT_CHARS, MAX_TOOL_IMAGES, type AssistantMessage, type PausePoint, type TaskInput, type ToolCall, type ToolImage, type ToolView } from './records/index.ts';

/** What a running call showed through its context: its images, whether a card it made was decided already, and for a view's call the server's own result. */
export interface CallShown {
  images: ToolImage[];
  cardDecided: boolean;
  /** A view's call only: the result as its server gave it, as JSON (call-from-view.ts); none past `MAX_APP_RESULT_CHARS`. */
  appResult?: string;
  /** An MCP App's view of the call (issue 36), stored with its result. */
  view?: ToolView;
}

/**
 * The `ToolContext` of one call, run (execute-call.ts) or followed to its
 * task's end (follow-task.ts): its cards, its questions, its images.
 * `recordTask` is the caller's: only a run that owns the ledger entry adds it.
 */
export function callContext(ctx: EngineContext, message: AssistantMessage, call: ToolCall, signal: AbortSignal): { context: ToolContext; shown: CallShown } {
  const shown: CallShown = { images: [], cardDecided: false };
  const context: ToolContext = {
    conversationId: message.conversationId,
    toolCallId: call.id,
    turnIndex: message.turnIndex,
    signal,
    pause: async (request) => {
      const card = await pauseForTool(ctx, message, call, request);
      // A re-run (its first run's tab died before storing the result) finds the card it made, possibly decided since.
      shown.cardDecided = card.status !== 'pending';
      return card.id;
    },
    ask: async (request) => ctx.asks.wait(ctx, (request.taskInput && (await askedForTask(ctx, message, call, request.taskInput))) || (await createPause(ctx, message, call, request, 'elicitation')), signal),
    showImages: (images) => void (shown.images = [...shown.images, ...images].slice(0, MAX_TOOL_IMAGES)),
    showView: (view: ToolView) => void (shown.view = view),
    // Only a view's call keeps the server's own result: the view is answered with it (call-from-view.ts).
    ...(message.fromView ? { keepResultForView: (json: string) => void (shown.appResult = json.length <= MAX_APP_RESULT_CHARS ? json : undefined) } : {}),
  };
  return { context, shown };
}

/**
 * The card a task's question already has (`PausePoint.taskInput`), pending or
 * answered: asked by a run whose tab died, the task still waits for its
 * answer. A card that ended unanswered because a run stopped (`lost`) is no
 * answer: the question is asked again.
 */
async function askedForTask(ctx: EngineContext, message: AssistantMessage, call: ToolCall, input: TaskInput): Promise<string | undefined> {
  const { pausePoints } = await ctx.storage.loadCalls(message.conversationId, [call.id]);
  const card = pausePoints.findLast(
    (p) => p.toolCallId === call.id && p.origin === 'elicitation' && p.taskInput?.taskId === input.taskId && p.taskInput.key === input.key,
  );
  return card && card.expiredReason !== 'lost' ? card.id : undefined;
}

/** `context.pause` for tools: idempotent per call, so a re-run finds the card it already made. */
async function pauseForTool(
  ctx: EngineContext,
  message: AssistantMessage,
  call: ToolCall,
  request: PauseRequest,
): Promise<{ id: string; status: PausePoint['status'] }> {
  const existing = (await ctx.storage.loadCalls(message.conversationId, [call.id])).pausePoints.find(
    (p) => p.toolCallId === call.id && p.origin === 'model',
  );
  if (existing) return existing;
  return { id: await createPause(ctx, message, call, request, 'model'), status: 'pending' };
}
