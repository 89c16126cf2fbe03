import { jsonEqual } from '../engine/json-equal.ts';
import { ledgerId, type LedgerEntry, type PausePoint, type RuleScope, type ToolCall } from '../engine/records/index.ts';
import { BUILTIN_TOOL_INPUTS } from '../tools/builtin-tool-inputs.ts';
import type { RecordTable } from './backup-format.ts';

/** The fields of a record that point at another record; every stored record has this shape. */
export interface LinkedRecord {
  id: string;
  conversationId?: string;
  toolCallId?: string;
  scope?: RuleScope;
}

/**
 * Why a valid record cannot stand in a backup beside the others, or undefined
 * when it can: every record a conversation owns (messages, pause points, ledger
 * entries, rules scoped to it) must belong to a conversation in the same file,
 * and a ledger entry's id must be the one derived from its conversation and
 * call (`ledgerId`). A record that broke either would land in this browser
 * attached to whatever else has that id — a conversation here, another
 * conversation's ledger — so a restore refuses the file, and a backup leaves
 * such a record out (and lists it) rather than write a file that will not restore.
 *
 * `conversations` holds the ids of the conversations in the file.
 */
export function recordLinkProblem(table: RecordTable, record: LinkedRecord, conversations: ReadonlySet<string>): string | undefined {
  const outside = (conversationId: string) =>
    conversations.has(conversationId) ? undefined : `it belongs to conversation "${clip(conversationId)}", which is not in the backup`;
  switch (table) {
    case 'messages':
    case 'pausePoints':
      return record.conversationId === undefined ? undefined : outside(record.conversationId);
    case 'ledger': {
      if (record.conversationId === undefined || record.toolCallId === undefined) return undefined;
      const expected = ledgerId(record.conversationId, record.toolCallId);
      if (record.id !== expected) return `its id is not "${clip(expected)}", the id its conversation and tool call give it`;
      return outside(record.conversationId);
    }
    case 'approvalRules':
      return record.scope?.kind === 'conversation' ? outside(record.scope.conversationId) : undefined;
    // An audit event is history: it names what it was about, and needs nothing it names to be here.
    case 'conversations':
    case 'notes':
    case 'auditEvents':
      return undefined;
  }
}

/**
 * Why a gate card cannot stand beside the call it asks about, or undefined when
 * it can. Approving a gate card runs the arguments of the stored tool call (or,
 * after "Run again", of its ledger entry), never the card's payload, so a card
 * whose tool or payload differs from its call would show one request and run
 * another: a crafted file could ask "GET example.com?" and send a POST to a
 * bank. Refused, not repaired: the title and description a card shows come
 * from the same file.
 *
 * `call` is the tool call of that id in the file's messages of the card's
 * conversation, `ledger` the call's ledger entry, each undefined when the file
 * has none. A card whose call is not in the file is left alone: the engine
 * only settles calls of the messages it holds, so nothing runs on it.
 *
 * The payload must equal the call's arguments as the model sent them, or as
 * the tool reads them (a built-in tool's schema normalises, so its card holds
 * the parsed form), or the arguments of the call's ledger entry (the question
 * "Run again" asks is about those).
 */
export function gateCardProblem(pause: PausePoint, call: ToolCall | undefined, ledger: LedgerEntry | undefined): string | undefined {
  if (pause.origin !== 'gate' || call === undefined) return undefined;
  if (pause.toolName !== call.name) return `it asks about tool "${clip(pause.toolName)}", but its call "${clip(call.id)}" is to "${clip(call.name)}"`;
  const raw = rawArguments(call);
  if (raw.ok) {
    if (jsonEqual(pause.payload, raw.value)) return undefined;
    const parsed = BUILTIN_TOOL_INPUTS.get(call.name)?.safeParse(raw.value);
    if (parsed?.success && jsonEqual(pause.payload, parsed.data)) return undefined;
  }
  if (ledger !== undefined && jsonEqual(pause.payload, ledger.args)) return undefined;
  return `the arguments it shows are not those of its call "${clip(call.id)}" to ${clip(call.name)}, which approving it would run`;
}

function rawArguments(call: ToolCall): { ok: true; value: unknown } | { ok: false } {
  // As the engine reads them (parse-call.ts): empty means no arguments.
  if (call.arguments.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(call.arguments) };
  } catch (error) {
    // Not JSON: the engine answers such a call "invalid" and never runs it; no payload equals it.
    if (error instanceof SyntaxError) return { ok: false };
    throw error;
  }
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
