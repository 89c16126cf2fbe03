import type { z } from 'zod';
import type { McpToolSource, PausePoint, Risk, TaskInput, ToolImage, ToolView } from './records/index.ts';

/** A card a tool asks the user for (`ToolContext.pause` and `ask`). */
export interface PauseRequest {
  title: string;
  description: string;
  options: string[] | null;
  payload: unknown;
  kind: PausePoint['kind'];
  /** `ask` only: the question of a server's task this is (`PausePoint.taskInput`); asked once per task and key, across runs. */
  taskInput?: TaskInput;
}

/** What a running call is given besides its arguments. */
export interface ToolContext {
  conversationId: string;
  toolCallId: string;
  turnIndex: number;
  signal: AbortSignal;
  /** Stores a pending pause point for this call and returns its id. */
  pause(request: PauseRequest): Promise<string>;
  /**
   * Asks the user while the call keeps running (an MCP server's elicitation):
   * stores a new pending pause point for this call every time, and resolves
   * with it once it is decided (`resolved`) or expired. If the run ends first
   * (Stop), the card expires as `lost` and this rejects with the abort reason;
   * if the tab dies, the next run to hold the conversation expires it as lost.
   * A task's question (`taskInput`) is the exception: its card stays through a
   * dead tab, and asking it again finds that card (pending or answered).
   */
  ask(request: PauseRequest): Promise<PausePoint>;
  /**
   * Images for the user's view of this call (an MCP tool's image content),
   * stored with its result if the call succeeds; the model never gets them,
   * only what `execute` returns. Optional so plain test contexts need none.
   */
  showImages?(images: readonly ToolImage[]): void;
  /**
   * The server took the call as a task with this id: stored on the call's
   * ledger entry before this resolves, so the tool goes on (waits for the
   * task) only once a reload could read the outcome back. Optional so plain
   * test contexts need none; a tool without it must not start a task.
   */
  recordTask?(task: { id: string }): Promise<void>;
  /**
   * Given only for a call an app's view proposed (MCP Apps): the tool's
   * result as its server gave it, as JSON, which the view is answered with.
   * Stored with the call's result if it succeeds; never sent to the model.
   */
  keepResultForView?(json: string): void;
  /** An MCP App's view of this call (issue 36), stored with its result if the call succeeds; never sent to the model. */
  showView?(view: ToolView): void;
}

/** MCP Apps' `_meta.ui.visibility`: who may call a tool, the model, an app's view, or both (the default). */
export type ToolAudience = 'model' | 'app';

/** What a gate asks the user when it holds a call back. */
export interface GateQuestion {
  title: string;
  description: string;
}

// Methods (not function-typed properties) on purpose: their parameters are
// checked bivariantly, so a ToolDefinition<typeof input> fits a ToolDefinition[].
export interface ToolDefinition<S extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  input: S;
  /** JSON Schema sent to the model; derived from `input` unless given. */
  parameters?: Record<string, unknown>;
  /**
   * The per-call approval gate, decided over this call's arguments before
   * anything runs. Returns the question to ask, or null to let the call run.
   */
  gate?(args: z.infer<S>): GateQuestion | null;
  /**
   * Whether running this call again after a crash is harmless (reads, or work
   * that is itself idempotent). Calls that are not safe to retry get an
   * "outcome unknown" pause instead of a silent second run. Defaults to false.
   */
  safeToRetry?(args: z.infer<S>): boolean;
  /**
   * Whether this call cannot be undone (a DELETE, a deletion). Its card does
   * not offer "Always allow" unless the user turned that on in Settings: one
   * click should not grant every such call to come. Defaults to false.
   */
  irreversible?(args: z.infer<S>): boolean;
  /**
   * What this call does, as its card's label (`reads`, `changes`,
   * `destructive`; see risk-label.ts). A tool that declares nothing is
   * labelled `unknown`.
   */
  risk?(args: z.infer<S>): Risk;
  /**
   * For a tool an MCP server lists: the server and the tool there. Plain data
   * the engine copies onto every pause point of the tool's calls, for the
   * audit log; it changes nothing about how a call is decided.
   */
  mcp?: McpToolSource;
  /**
   * Who may call it (MCP Apps' `_meta.ui.visibility`); absent: both. A tool
   * without `model` is never listed to the model nor run on its call; one
   * without `app` is refused to a view (call-from-view.ts, parse-call.ts).
   */
  visibility?: readonly ToolAudience[];
  /**
   * The tool's whole definition where it comes from, when it is more than
   * what the model is sent, or newer: an MCP tool as its server lists it now
   * (annotations and output schema included), while the model may still be
   * offered the definition the user accepted. Part of its definition hash
   * (definition-hash.ts): a change here is a change of the tool.
   */
  sourceDefinition?: Record<string, unknown>;
  /**
   * True while the tool's definition is not the one the user last accepted
   * (an MCP server listed it changed, and no call of it has been approved
   * since): no rule bound to no definition (a glob) lets its calls through.
   */
  definitionChanged?: boolean;
  /** Returns the text the model reads as this call's result. Throws on failure. */
  execute(args: z.infer<S>, context: ToolContext): Promise<string>;
  /**
   * For a call its server runs as a task (`ToolContext.recordTask`): waits
   * for the task's outcome and returns it as `execute` would have, without
   * running anything again. Used when the run that started the call is gone
   * (a reload, a closed tab, a crash). Throws `OutcomeUnknown` when the server
   * can no longer say (it forgot the task).
   */
  followTask?(taskId: string, args: z.infer<S>, context: ToolContext): Promise<string>;
  /** Asks the server to cancel the call's task; its outcome still comes through `followTask` or `execute`. */
  cancelTask?(taskId: string): Promise<void>;
}
