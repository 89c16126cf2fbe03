import type { EngineContext } from './engine-context.ts';
import { parseApprovalMarker } from './marker.ts';
import type { MessageDraft } from './storage-port.ts';
import type { AssistantMessage, LedgerEntry, Message, PausePoint, ToolCall, ToolImage, ToolOutcome, ToolView } from './records/index.ts';

/** A call waits for a person, or is settled with the result stored for it. */
export type CallState = 'waiting' | Message;

/** Stores a result for a call that did not run (or whose run is already recorded). */
export async function writeResult(
  ctx: EngineContext,
  message: AssistantMessage,
  call: ToolCall,
  content: string,
  outcome: ToolOutcome,
): Promise<Message> {
  const [stored] = await ctx.storage.appendMessages(message.conversationId, [resultDraft(ctx, message, call, content, outcome)]);
  return stored!;
}

/**
 * A finished call is stored in one write: its ledger entry with the result the
 * model reads, so a tab that dies after the tool ran either stored both (and
 * nothing runs again) or neither (and the entry still says `started`).
 */
export async function finish(
  ctx: EngineContext,
  message: AssistantMessage,
  call: ToolCall,
  entry: LedgerEntry,
  content: string,
  outcome: ToolOutcome,
  /** The tool's images, for the user's view only (lost if the tab dies before this write, like the result). */
  images: readonly ToolImage[] = [],
  /** For a call a view proposed: the server's result as JSON, which the view is answered with (call-from-view.ts). */
  appResult?: string,
  /** Its MCP App view, for the user only (issue 36). */
  view?: ToolView,
): Promise<Message> {
  return ctx.storage.finishExecution(entry, resultDraft(ctx, message, call, content, outcome, images, appResult, view));
}

/** A ledger entry finished without its result stored next to it (written by an earlier version, which stored them apart). */
export async function finishFromLedger(
  ctx: EngineContext,
  message: AssistantMessage,
  call: ToolCall,
  ledger: LedgerEntry,
  pauses: readonly PausePoint[],
): Promise<CallState> {
  const content = ledger.result ?? 'The tool ran; its result was not recorded.';
  const marker = parseApprovalMarker(content);
  const outcome: ToolOutcome = ledger.status === 'failed' ? 'failed' : marker ? 'awaiting_approval' : 'done';
  const stored = await writeResult(ctx, message, call, content, outcome);
  const stillPending = marker !== null && pauses.some((p) => p.id === marker && p.status === 'pending');
  return stillPending ? 'waiting' : stored;
}

function resultDraft(
  ctx: EngineContext,
  message: AssistantMessage,
  call: ToolCall,
  content: string,
  outcome: ToolOutcome,
  images: readonly ToolImage[] = [],
  appResult?: string,
  view?: ToolView,
): MessageDraft {
  return {
    v: 1,
    id: ctx.ids.uuid(),
    conversationId: message.conversationId,
    createdAt: ctx.clock.now(),
    role: 'tool',
    toolCallId: call.id,
    toolName: call.name,
    content,
    ...(images.length > 0 ? { images: [...images] } : {}),
    // The result of a view's call is the view's, like the call (read-history.ts): the model is not sent it.
    ...(message.fromView ? { fromView: message.fromView } : {}),
    ...(appResult === undefined ? {} : { appResult }),
    ...(view ? { view } : {}),
    outcome,
  };
}
