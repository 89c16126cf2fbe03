import { z } from 'zod';

/** JSON characters kept of a call's arguments and of its result for its view: past this the view is not kept (the text result still is). */
export const MAX_TOOL_VIEW_JSON = 200_000;

/**
 * What the user's view of an MCP App call is rendered from again after a
 * reload (issue 36): the server and the `ui://` resource its tool's
 * definition declared (never one a result named), and, as JSON, the
 * arguments the call ran with and the server's result, which the view is
 * sent as `ui/notifications/tool-input` and `tool-result`. The HTML is read
 * from the server each time the view is shown, not stored. Never sent to the model.
 */
export const ToolView = z.object({
  serverId: z.string().min(1).max(200),
  resourceUri: z.string().max(2048).startsWith('ui://'),
  input: z.string().max(MAX_TOOL_VIEW_JSON),
  result: z.string().max(MAX_TOOL_VIEW_JSON),
});
export type ToolView = z.infer<typeof ToolView>;
