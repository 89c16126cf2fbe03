import { z } from 'zod';
import type { ToolAudience } from '../engine/tool-definition.ts';

/**
 * MCP Apps' `_meta.ui.visibility` (SEP-1865): who may call a tool, `model`
 * (listed to and called by the model), `app` (called by a view of this
 * server), or both — the default, which absent, empty or unreadable gives.
 * Unknown values are left out, so a tool a later revision names a new
 * audience for keeps what this one can read of it.
 */
export const TOOL_AUDIENCES = ['model', 'app'] as const satisfies readonly ToolAudience[];

const Meta = z.object({ ui: z.object({ visibility: z.array(z.unknown()).max(16) }).loose() }).loose();

/** The audiences a tool's `_meta` names, or undefined for both. */
export function toolVisibility(meta: unknown): ToolAudience[] | undefined {
  const parsed = Meta.safeParse(meta);
  if (!parsed.success) return undefined;
  const named = TOOL_AUDIENCES.filter((audience) => parsed.data.ui.visibility.includes(audience));
  return named.length === 0 || named.length === TOOL_AUDIENCES.length ? undefined : named;
}
