import { CHANGED_SINCE_APPROVED } from './card-warnings.ts';
export { CHANGED_SINCE_APPROVED };
import type { EngineContext } from './engine-context.ts';
import type { GateQuestion, ToolDefinition } from './tool-definition.ts';
import type { PausePoint, ToolCall } from './records/index.ts';


/**
 * Whether the tool is no longer what an approved card showed: its definition
 * hash now (definition-hash.ts) differs from the one stored with the card.
 * An approval is for one definition; an MCP server may change a tool between
 * the card and the run. A card that names no hash (written before cards
 * carried one) cannot say what it showed, so it counts as changed.
 */
export async function changedSinceCard(ctx: Pick<EngineContext, 'tools'>, call: ToolCall, card: PausePoint): Promise<boolean> {
  const now = await ctx.tools.definitionHash(call.name);
  return card.definitionHash === undefined || card.definitionHash !== now;
}

/** The question asked again: why first, then the tool's own gate's as it reads now (for an MCP tool, what changed since its pin). */
export function askedAgain(tool: ToolDefinition, call: ToolCall, args: unknown): GateQuestion {
  const own = tool.gate?.(args);
  return own ? { title: own.title, description: `${CHANGED_SINCE_APPROVED}\n\n${own.description}` } : { title: `Run ${call.name}?`, description: CHANGED_SINCE_APPROVED };
}
