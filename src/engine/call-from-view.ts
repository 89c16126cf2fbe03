import type { DevicesPort } from './devices-port.ts';
import type { EngineContext } from './engine-context.ts';
import { offeredTo } from './parse-call.ts';
import { openCalls } from './read-history.ts';
import { settleOpenCalls, type Settled } from './settle-open-calls.ts';
import type { MessageDraft } from './storage-port.ts';
import type { ToolDefinition } from './tool-definition.ts';
import type { AssistantMessage, Conversation, Message, ToolMessage } from './records/index.ts';
import { currentPath } from './versions/current-path.ts';

/**
 * MCP Apps (issue 36, point 3): a `tools/call` an app's view sends is one
 * more untrusted author of tool calls. It is stored as a row of its own in the
 * conversation — an assistant message of one call, marked `fromView` — and
 * settled by the same code as the model's calls (settle-open-calls.ts): the
 * approval rules, the tool's gate and risk label, a card when one is due, the
 * ledger and its at-most-once, the audit record. Its card and audit entry say
 * the view proposed it (the pause point's `fromView`).
 *
 * Its result is not given to the model: MCP Apps results go back to the app
 * that asked, and the model never asked for the call (read-history.ts and
 * build-request.ts skip every `fromView` message). Nor does it make the
 * model answer: a view's call settles, and the conversation stays as it was.
 */
export interface ViewCallRequest {
  conversationId: string;
  /** The call row whose view asked. */
  viewCallId: string;
  /** The server the view came from: the only one whose tools it may call (SEP-1865: "from this server only"). */
  serverId: string;
  /** The tool's name on that server. */
  name: string;
  arguments: Record<string, unknown>;
}

/** How a view's call ended, for the view. `ran`: the server's result as JSON when kept, else its text. */
export type ViewCallOutcome =
  | { outcome: 'ran'; result: string | null; text: string; isError: boolean }
  | { outcome: 'declined'; reason: string }
  | { outcome: 'refused'; reason: string };

/** How often a waiting view looks for its call's result (a decision may be made in another tab or on another device). */
export const VIEW_CALL_POLL_MS = 500;

/** The view's call as a row of the conversation: what `proposeViewCall` stores, or why the view may not make it. */
export type ViewCallDraft = { ok: true; draft: MessageDraft & { role: 'assistant' }; callId: string } | { ok: false; refused: ViewCallOutcome & { outcome: 'refused' } };

const refuse = (reason: string): ViewCallDraft => ({ ok: false, refused: { outcome: 'refused', reason } });

/**
 * Checks that the view may make this call, and makes the row that proposes
 * it: the view's own call row is in the conversation and ran a tool of
 * `serverId`; the tool asked for is one of that server's, offered to apps
 * (`_meta.ui.visibility` includes `app`, or says nothing). Its arguments are
 * checked when it is settled, as the model's are (an `invalid` result).
 */
export function viewCallDraft(ctx: Pick<EngineContext, 'tools' | 'ids' | 'clock'>, conversation: Conversation, history: readonly Message[], request: ViewCallRequest): ViewCallDraft {
  const row = history.find((m): m is ToolMessage => m.role === 'tool' && m.toolCallId === request.viewCallId && !m.fromView);
  if (!row) return refuse('The call whose view asked is not in this conversation.');
  const rowTool = ctx.tools.get(row.toolName);
  if (rowTool?.mcp?.serverId !== request.serverId) return refuse('A view may only call tools of its own server.');
  const tool = toolOfServer(ctx.tools.all(), request.serverId, request.name);
  if (!tool) return refuse(`The server offers no tool named "${request.name}".`);
  if (!offeredTo(tool, 'app')) return refuse(`The tool "${request.name}" may be called by the model only, not by a view.`);
  const callId = `view-${ctx.ids.uuid()}`;
  const turnIndex = history.find((m): m is AssistantMessage => m.role === 'assistant' && m.toolCalls.some((c) => c.id === request.viewCallId))?.turnIndex;
  return {
    ok: true,
    callId,
    draft: {
      v: 1,
      id: ctx.ids.uuid(),
      conversationId: conversation.id,
      createdAt: ctx.clock.now(),
      role: 'assistant',
      content: '',
      toolCalls: [{ id: callId, name: tool.name, arguments: JSON.stringify(request.arguments) }],
      // The turn whose call showed the view: its cards are that turn's.
      turnIndex: turnIndex ?? Math.max(0, conversation.turns - 1),
      status: 'complete',
      fromView: { viewCallId: request.viewCallId },
    },
  };
}

function toolOfServer(tools: Iterable<ToolDefinition>, serverId: string, name: string): ToolDefinition | undefined {
  for (const tool of tools) if (tool.mcp?.serverId === serverId && tool.mcp.toolName === name) return tool;
  return undefined;
}

/**
 * Settles every open call a view proposed in `history`, each as the model's
 * are: what ran or was refused is stored, and the cards due are returned for
 * the caller to store with the paused state (as `settleOpenCalls` returns them).
 */
export async function settleViewCalls(ctx: EngineContext, history: readonly Message[], signal: AbortSignal): Promise<Settled> {
  const settled: Settled = { waiting: 0, results: [], questions: [] };
  for (const message of history) {
    if (message.role !== 'assistant' || !message.fromView || message.status !== 'complete') continue;
    const open = openCalls(message, history);
    if (open.length === 0) continue;
    const one = await settleOpenCalls(ctx, message, open, signal);
    settled.waiting += one.waiting;
    settled.results.push(...one.results);
    settled.questions.push(...one.questions);
  }
  return settled;
}

/** Stores the cards a view's call asks, with the conversation paused on them (as the loop pauses: one transaction), and tells the host. */
export async function pauseForView(ctx: EngineContext, conversationId: string, questions: Settled['questions']): Promise<void> {
  if (questions.length === 0) return;
  await ctx.storage.pauseConversation(conversationId, questions, (c, pending) => ({ ...c, state: { kind: 'paused', pending }, updatedAt: ctx.clock.now() }));
  for (const question of questions) ctx.onPause(question);
}

/**
 * Under the conversation's lock (the caller holds it): stores the view's call
 * as its row, then settles it at once — run, refused, or its card stored with
 * the conversation paused. Returns where its result will be (`callId`, from
 * `seq`), or why the view may not make it. The row is stored before anything
 * is decided: a tab that dies after leaves an open call the next run settles
 * (loop's `settleViewCalls`), never one that runs unasked or twice.
 */
export async function startViewCall(
  ctx: EngineContext,
  devices: Pick<DevicesPort, 'runsHere'>,
  request: ViewCallRequest,
): Promise<{ callId: string; seq: number } | (ViewCallOutcome & { outcome: 'refused' })> {
  const conversation = await ctx.storage.getConversation(request.conversationId);
  if (!conversation) return { outcome: 'refused', reason: 'That conversation no longer exists.' };
  // Only the device that runs a conversation runs its calls (as the model's).
  if (!devices.runsHere(conversation.ownerDevice)) return { outcome: 'refused', reason: `This conversation runs on ${conversation.ownerDevice?.name ?? 'another device'}.` };
  const history = currentPath(await ctx.storage.listMessages(conversation.id), conversation.versions);
  const made = viewCallDraft(ctx, conversation, history, request);
  if (!made.ok) return made.refused;
  const [stored] = await ctx.storage.appendMessages(conversation.id, [made.draft]);
  if (stored?.role !== 'assistant') throw new Error('The view’s call was not stored.');
  // Not the run's signal: a view that goes away does not stop a call it started (Stop in the conversation does not reach it either).
  const settled = await settleOpenCalls(ctx, stored, stored.toolCalls, new AbortController().signal);
  await pauseForView(ctx, conversation.id, settled.questions);
  return { callId: made.callId, seq: stored.seq };
}

/**
 * Waits for the result of the view's call `callId` (stored at `fromSeq` or
 * after) and says how it ended. The decision may come from any tab or device,
 * and the call may run in another tab: the stored result is what counts.
 * Rejects with the signal's reason if it aborts first; the call itself goes
 * on (its card stays, and its outcome is recorded like any call's).
 */
export async function viewCallOutcome(ctx: Pick<EngineContext, 'storage' | 'clock'>, conversationId: string, callId: string, fromSeq: number, signal = new AbortController().signal): Promise<ViewCallOutcome> {
  for (;;) {
    if (!(await ctx.storage.getConversation(conversationId))) return { outcome: 'declined', reason: 'The conversation was deleted before the call was decided.' };
    const result = (await ctx.storage.listMessages(conversationId, fromSeq)).find((m): m is ToolMessage => m.role === 'tool' && m.toolCallId === callId);
    if (result) return outcomeOf(result);
    await ctx.clock.sleep(VIEW_CALL_POLL_MS, signal);
  }
}

/** What a view is told of its call's stored result. */
export function outcomeOf(result: ToolMessage): ViewCallOutcome {
  switch (result.outcome) {
    case 'done':
      return { outcome: 'ran', result: result.appResult ?? null, text: result.content, isError: false };
    case 'failed':
      return { outcome: 'ran', result: null, text: result.content, isError: true };
    case 'invalid':
      return { outcome: 'refused', reason: result.content };
    default:
      // Declined (by a person or a rule), expired, skipped, or of unknown outcome: it did not run as asked.
      return { outcome: 'declined', reason: result.content };
  }
}
