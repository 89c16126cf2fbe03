import { STARTED_ELSEWHERE } from './card-warnings.ts';
export { STARTED_ELSEWHERE };
import { jsonEqual } from './json-equal.ts';
import type { GateQuestion, ToolDefinition } from './tool-definition.ts';
import type { LedgerEntry, PausePoint, ToolCall } from './records/index.ts';
import { WAIT_FOR_APPROVAL } from './wait-for-approval.ts';


/**
 * Whether a stored `started` entry is one a restore brought (`LedgerEntry.restored`)
 * for a call that is safe to retry: then, instead of running it again as after a
 * crash here, the engine asks with a fresh gate card about the entry's arguments,
 * as "Run again" after an unknown outcome does. Returns those arguments, parsed
 * by the tool's schema (the entry is data from a file), or undefined when the
 * entry is not such a one. A restored entry whose call is not safe to retry, or
 * whose arguments do not parse, takes the unknown-outcome path: "Did it finish?".
 *
 * `wait_for_approval` is left out: running it again only shows the model's card.
 */
export function restoredStartArgs(tool: ToolDefinition, call: ToolCall, ledger: LedgerEntry): { args: unknown } | undefined {
  if (ledger.restored !== true || call.name === WAIT_FOR_APPROVAL) return undefined;
  const parsed = tool.input.safeParse(ledger.args);
  if (!parsed.success || !tool.safeToRetry?.(parsed.data)) return undefined;
  return { args: parsed.data };
}

/**
 * The gate pauses that answer the question about a restored start: those asked
 * about exactly `args`. A card about other arguments (the model's, before an
 * edit, or one a crafted file holds) is no approval of these.
 */
export function restoredStartPauses(gatePauses: readonly PausePoint[], args: unknown): PausePoint[] {
  return gatePauses.filter((pause) => jsonEqual(pause.payload, args));
}

/** The card for a restored start: the tool's own question when it has one (a trusted read has none), always asked. */
export function restoredStartQuestion(tool: ToolDefinition, call: ToolCall, args: unknown): GateQuestion {
  const own = tool.gate?.(args) ?? { title: `Run ${call.name}?`, description: 'Its arguments are below.' };
  return { title: own.title, description: `${STARTED_ELSEWHERE}\n\n${own.description}` };
}
