import { settleExpired } from './ask-while-running.ts';
import type { EngineContext } from './engine-context.ts';
import type { AssistantMessage, PausePoint, ToolCall } from './records/index.ts';

/** A card a server's task asked (`PausePoint.taskInput`): it outlives the run that asked it, as the task waits on for its answer. */
export function askedByTask(pause: PausePoint): boolean {
  return pause.origin === 'elicitation' && pause.taskInput !== undefined;
}

/**
 * Expires the call's task cards still pending once nothing follows its task
 * any more (it ended, or its outcome is unknown): nobody would take their
 * answer to the server.
 */
export async function endTaskCards(ctx: EngineContext, message: AssistantMessage, call: ToolCall): Promise<void> {
  const { pausePoints } = await ctx.storage.loadCalls(message.conversationId, [call.id]);
  for (const pause of pausePoints) {
    if (pause.toolCallId === call.id && pause.status === 'pending' && askedByTask(pause)) await settleExpired(ctx, pause.id, 'lost');
  }
}
