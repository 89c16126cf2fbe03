import type { z } from 'zod';
import type { ToolAudience, ToolDefinition } from './tool-definition.ts';
import type { ToolCall } from './records/index.ts';
import type { ToolRegistry } from './tool-registry.ts';

export type ParsedCall =
  | { ok: true; tool: ToolDefinition; args: unknown }
  | { ok: false; error: string };

/**
 * A model's tool call (or, `by: 'app'`, a view's), checked: a tool offered to
 * whoever called it (MCP Apps' visibility: an app-only tool is no tool to the
 * model, and a model-only one none to a view), JSON arguments, and arguments
 * that pass the tool's schema. Every failure is a sentence the model can act on.
 */
export function parseCall(call: ToolCall, tools: ToolRegistry, by: ToolAudience = 'model'): ParsedCall {
  const tool = tools.get(call.name);
  if (!tool || !offeredTo(tool, by)) {
    return { ok: false, error: `Error: there is no tool named "${call.name}". Available tools: ${tools.names().join(', ')}.` };
  }
  let raw: unknown;
  try {
    raw = call.arguments.trim() === '' ? {} : JSON.parse(call.arguments);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, error: `Error: the arguments for ${call.name} are not valid JSON (${reason}). Send a JSON object.` };
  }
  const parsed = tool.input.safeParse(raw);
  if (!parsed.success) {
    return { ok: false, error: `Error: invalid arguments for ${call.name}: ${describeIssues(parsed.error)}. Correct them and call again.` };
  }
  return { ok: true, tool, args: parsed.data };
}

export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

/** Whether `tool` may be called by `by` (its `visibility`; absent: by both). */
export function offeredTo(tool: Pick<ToolDefinition, 'visibility'>, by: ToolAudience): boolean {
  return tool.visibility === undefined || tool.visibility.includes(by);
}
