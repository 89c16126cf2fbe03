import { z } from 'zod';
import { AttachmentRefs } from './attachment.ts';
import { CallUsage } from './usage.ts';

export const ToolCall = z.object({
  id: z.string(),
  name: z.string(),
  /** Raw JSON text exactly as the model produced it: it may be malformed. */
  arguments: z.string(),
});
export type ToolCall = z.infer<typeof ToolCall>;

const base = {
  v: z.literal(1),
  id: z.string(),
  conversationId: z.string(),
  seq: z.number().int().nonnegative(),
  createdAt: z.number(),
  /**
   * The version branch it was written on (see versions.ts); absent on the
   * root. Storage stamps it when it hands out `seq`, from the conversation's
   * current version, unless the draft names one.
   */
  branch: z.string().min(1).max(200).optional(),
  /**
   * MCP Apps (issue 36): written for a call an app's view proposed (the call,
   * its result, the decision on its card), not by or for the model. Shown to
   * the person; never sent to the model, and never a reason to ask it anything
   * (read-history.ts, build-request.ts): MCP Apps results go back to the app.
   * `viewCallId`: the call row whose view asked.
   */
  fromView: z.object({ viewCallId: z.string().min(1).max(200) }).optional(),
};

export const UserMessage = z.object({
  ...base,
  role: z.literal('user'),
  content: z.string(),
  /** Set on the synthetic message that states a human decision. */
  decision: z.object({ pausePointId: z.string() }).optional(),
  /** Files the user attached; their bytes are in storage's attachments, written before this message. */
  attachments: AttachmentRefs.optional(),
});

export const AssistantMessage = z.object({
  ...base,
  role: z.literal('assistant'),
  content: z.string(),
  toolCalls: z.array(ToolCall),
  turnIndex: z.number().int().nonnegative(),
  /**
   * `streaming` while text arrives; `complete` once the model finished;
   * `interrupted` when the stream died (tab closed, connection dropped). An
   * interrupted message is kept for the user but never sent back to the model.
   */
  status: z.enum(['streaming', 'complete', 'interrupted']),
  /** What the call that wrote this answer used, when the endpoint said. */
  usage: CallUsage.optional(),
  /**
   * True on an answer brought in from a file (an import or a backup,
   * src/inert/): its `usage` was spent elsewhere, if at all. It is shown as
   * history and never counted toward a spending limit here (spending.ts,
   * usage-repo.ts), so a re-import cannot double today's spending.
   */
  fromFile: z.literal(true).optional(),
});

import { ToolView } from './tool-view.ts';
import { BASE64_DATA, MAX_TOOL_IMAGE_CHARS, MAX_TOOL_IMAGES, TOOL_IMAGE_TYPES } from './tool-image-limits.ts';

export { BASE64_DATA, MAX_TOOL_IMAGE_CHARS, MAX_TOOL_IMAGES, TOOL_IMAGE_TYPES };

/** The longest MCP result (as JSON) kept for the view that proposed its call; past it the view is answered with the text result. */
export const MAX_APP_RESULT_CHARS = 200_000;

/** An image a tool returned, kept for the user's view of the call; the model reads only a placeholder in `content`. */
export const ToolImage = z.object({
  mimeType: z.enum(TOOL_IMAGE_TYPES),
  data: z.string().max(MAX_TOOL_IMAGE_CHARS).regex(BASE64_DATA),
  alt: z.string().max(300),
});
export type ToolImage = z.infer<typeof ToolImage>;

export const ToolMessage = z.object({
  ...base,
  role: z.literal('tool'),
  toolCallId: z.string(),
  toolName: z.string(),
  content: z.string(),
  /** Images the tool returned, for the user only (shown in the call's row); never sent to the model. */
  images: z.array(ToolImage).max(MAX_TOOL_IMAGES).optional(),
  /**
   * For a call a view proposed (`fromView`): the MCP result as the server gave it, as JSON, which the view
   * is answered with (src/engine/call-from-view.ts). Absent when larger than `MAX_APP_RESULT_CHARS`: the view then gets `content`.
   */
  appResult: z.string().max(MAX_APP_RESULT_CHARS).optional(),
  /** An MCP App's view of the call (issue 36), rendered again from this after a reload; for the user only. */
  view: ToolView.optional(),
  /** How the call ended, for the UI; the model only reads `content`. */
  outcome: z.enum(['done', 'failed', 'declined', 'invalid', 'awaiting_approval', 'expired', 'skipped', 'unknown']),
});

/** A line for the user only (step limit reached, turn interrupted): never sent to the model. */
export const NoticeMessage = z.object({
  ...base,
  role: z.literal('notice'),
  content: z.string(),
});

export const Message = z.discriminatedUnion('role', [UserMessage, AssistantMessage, ToolMessage, NoticeMessage]);
export type Message = z.infer<typeof Message>;
export type UserMessage = z.infer<typeof UserMessage>;
export type AssistantMessage = z.infer<typeof AssistantMessage>;
export type ToolMessage = z.infer<typeof ToolMessage>;
export type NoticeMessage = z.infer<typeof NoticeMessage>;
export type ToolOutcome = ToolMessage['outcome'];
