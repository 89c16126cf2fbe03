import type { ToolDefinition } from './tool-definition.ts';

/** The gate card's `irreversible` field: present only when the tool says the call cannot be undone. */
export function irreversibleFlag(tool: ToolDefinition, args: unknown): { irreversible?: true } {
  return tool.irreversible?.(args) ? { irreversible: true } : {};
}
