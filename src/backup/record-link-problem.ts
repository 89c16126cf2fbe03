import { ledgerId, type RuleScope } from '../engine/records/index.ts';
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

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
