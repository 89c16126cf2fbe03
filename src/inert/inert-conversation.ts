import {
  isActive,
  ledgerId,
  type AssistantMessage,
  type AttachmentRef,
  type Conversation,
  type ConversationState,
  type LedgerEntry,
  type Message,
  type PausePoint,
  type ToolCall,
  type ToolMessage,
  type Versions,
} from '../engine/records/index.ts';
import { clampConversation, clampLedgerEntry, clampMessage, clampPausePoint } from './clamp-times.ts';
import type { FromFile } from './provenance.ts';

/**
 * The result every call left open in a file gets: the model reads it, the
 * person sees it in the call's row. Nothing in a file runs, and nothing in it
 * raises a card: the model may propose the call again, as a new call that
 * passes its gate and the rules here.
 */
export const NOT_RUN_FROM_FILE =
  'Not run: came from a file. This call was in a conversation brought in from a file (an import or a backup), and nothing from a file runs here. If it is still wanted, ask the user, then call the tool again.';

/** What a conversation that was working or waiting for a decision says beside Continue, by where it came from. */
export const INTERRUPTED_FROM_FILE: Readonly<Record<FromFile['source'], string>> = {
  backup: 'Restored from a backup made while it was working. Nothing has run here since; press Continue to go on.',
  import: 'Imported from a file made while it was working. Nothing has run here; press Continue to go on.',
};

/** One conversation's records as a file holds them (a backup, a conversation file, a ChatGPT export converted). */
export interface ForeignConversation {
  conversation: Conversation;
  messages: readonly Message[];
  pausePoints: readonly PausePoint[];
  /** The execution ledger's entries: a backup carries them, a conversation file never does. */
  ledger?: readonly LedgerEntry[];
}

/** The same conversation as it is written here. */
export interface InertConversation {
  conversation: Conversation;
  /** In `seq` order, numbered from 0, with a result for every call the file left open. */
  messages: Message[];
  pausePoints: PausePoint[];
  ledger: LedgerEntry[];
  /**
   * Each attachment id the file's messages name, and the id it is written
   * under here. A backup brings the bytes (checked against their SHA-256) and
   * writes them under the new ids; a conversation file brings none, so its
   * messages show their files as not on this device.
   */
  attachmentIds: ReadonlyMap<string, string>;
}

/**
 * A conversation from a file, made inert: the one path every record a file
 * brings passes through, for a restore and an import alike (src/inert/README
 * in docs/security.md). Pure: the caller reads the file, picks
 * the conversation's id (a restore keeps the file's, so restoring twice writes
 * nothing; an import mints one when the file's is taken here) and writes what
 * this returns. One conversation at a time, so an importer can stream a large
 * file through it.
 *
 * - **No id of the file takes one of this browser's, and links hold only where
 *   the file proves them.** An import mints every id — message, card, tool
 *   call, attachment — since its file is a copy whose original may be here (a
 *   re-imported export's copy must never show, send or delete the original's
 *   files). A restore keeps the ids its file proves, so restoring twice writes
 *   nothing and other devices know the same records; its caller refuses a file
 *   whose ids are taken here (restore-backup.ts). Either way a tool result
 *   belongs to the latest earlier answer of the file that made a call of its
 *   id; a card to the answer of its own turn that made its call; a ledger entry
 *   to the latest answer that made its call; a decision message to its card.
 *   A record whose link the file does not prove gets a fresh id that names
 *   nothing, so a call an endpoint names `call_0` after the import can never
 *   meet a card, a decision or a ledger entry of the file (the engine already
 *   renames a new call whose id a stored message names: uniqueCallIds).
 * - **Open calls are closed.** Every call of a finished answer that no result of
 *   the file answers gets the result `NOT_RUN_FROM_FILE`, on the answer's own
 *   version branch right after it (the messages are then renumbered, and the
 *   versions' fork points follow): it never runs and never asks, and the model
 *   is told so on the next call. An answer left streaming is interrupted.
 * - **No card or decision of the file is honoured.** Every card is marked
 *   `restored` and loses its expiry; a pending one comes in expired (abandoned).
 *   With its call closed, no decision on it is ever read to run anything.
 * - **The conversation is this browser's and idle**: working or paused, it comes
 *   back interrupted with Continue; without the device it ran on (sync).
 * - **Instructions arrive switched off** (`instructionsOff`): shown in the
 *   conversation's options for the person to turn on, never sent until then.
 * - **Usage is history**: answers keep what they used, marked `fromFile`, never
 *   counted toward a limit here; MCP sampling calls (counted by their time) are
 *   dropped from the list the limits read, their tokens stay in the totals shown.
 * - **Times are clamped** to `from.at` (clamp-times.ts).
 */
export function inertConversation(foreign: ForeignConversation, from: FromFile): InertConversation {
  const { uuid, at, conversationId } = from;
  const freshCallId = () => `call_${uuid()}`;
  // An import mints every id (its file is a copy: the original may be here); a restore keeps the ids the file proves (see above).
  const mint = from.source === 'import';
  const keepOr = (id: string) => (mint ? uuid() : id);
  const sorted = [...foreign.messages].sort((a, b) => a.seq - b.seq);

  // Calls, and the links the file proves. Keyed by the call, not its id: a kept id may be an earlier answer's too.
  const callsOf = new Map<AssistantMessage, ToolCall[]>();
  const latest = new Map<string, ToolCall>();
  const byTurn = new Map<number, Map<string, string>>();
  const resultCall = new Map<ToolMessage, string>();
  const answered = new Set<ToolCall>();
  for (const message of sorted) {
    if (message.role === 'assistant') {
      const ofTurn = byTurn.get(message.turnIndex) ?? new Map<string, string>();
      byTurn.set(message.turnIndex, ofTurn);
      // A repeated id within one answer links to its first call; the others get ids of their own and are answered as open.
      const seenHere = new Set<string>();
      const calls = message.toolCalls.map((call) => {
        if (seenHere.has(call.id)) return { ...call, id: freshCallId() };
        seenHere.add(call.id);
        const kept = { ...call, id: mint ? freshCallId() : call.id };
        latest.set(call.id, kept);
        ofTurn.set(call.id, kept.id);
        return kept;
      });
      callsOf.set(message, calls);
    } else if (message.role === 'tool') {
      const call = latest.get(message.toolCallId);
      resultCall.set(message, call?.id ?? freshCallId());
      if (call) answered.add(call);
    }
  }

  const cardIds = new Map<string, string>();
  for (const pause of foreign.pausePoints) if (!cardIds.has(pause.id)) cardIds.set(pause.id, keepOr(pause.id));
  const attachmentIds = new Map<string, string>();
  const attachmentId = (ref: AttachmentRef) => {
    let id = attachmentIds.get(ref.id);
    if (id === undefined) attachmentIds.set(ref.id, (id = keepOr(ref.id)));
    return id;
  };

  // Messages in `seq` order, each open call's result right after its answer: when there is one, all are renumbered from 0.
  const closing = sorted.some((m) => m.role === 'assistant' && m.status === 'complete' && (callsOf.get(m) ?? []).some((call) => !answered.has(call)));
  const messages: Message[] = [];
  const seqOf = new Map<number, number>();
  const place = (message: Message) => messages.push(closing ? { ...message, seq: messages.length } : message);
  for (const message of sorted) {
    if (!seqOf.has(message.seq)) seqOf.set(message.seq, closing ? messages.length : message.seq);
    const base = { ...clampMessage(message, at), id: keepOr(message.id), conversationId };
    switch (base.role) {
      case 'assistant': {
        const calls = callsOf.get(message as AssistantMessage) ?? [];
        const status = base.status === 'streaming' ? 'interrupted' : base.status;
        place({ ...base, toolCalls: calls, status, ...(base.usage ? { fromFile: true } : {}) });
        if (status !== 'complete') break;
        for (const call of calls) {
          if (answered.has(call)) continue;
          place(notRun(base, call, conversationId, uuid()));
        }
        break;
      }
      case 'tool':
        place({ ...base, toolCallId: resultCall.get(message as ToolMessage) ?? freshCallId() });
        break;
      case 'user': {
        const { decision, attachments, ...user } = base;
        place({
          ...user,
          ...(decision ? { decision: { pausePointId: cardIds.get(decision.pausePointId) ?? uuid() } } : {}),
          ...(attachments ? { attachments: attachments.map((ref) => ({ ...ref, id: attachmentId(ref) })) } : {}),
        });
        break;
      }
      case 'notice':
        place(base);
        break;
    }
  }
  const nextSeq = closing ? messages.length : Math.max(foreign.conversation.nextSeq, ...sorted.map((m) => m.seq + 1));
  /** Where a `seq` of the file is now: at the message that had it, or the first after it. */
  const remapSeq = (seq: number) => {
    if (!closing) return seq;
    const exact = seqOf.get(seq);
    if (exact !== undefined) return exact;
    const after = sorted.find((m) => m.seq >= seq);
    return after ? seqOf.get(after.seq)! : nextSeq;
  };

  const pausePoints = foreign.pausePoints.map((pause): PausePoint => {
    const linked = pause.origin === 'limit' ? undefined : byTurn.get(pause.turnIndex)?.get(pause.toolCallId);
    const { restored: _restored, expiredReason, ...card } = clampPausePoint(pause, at);
    const pending = card.status === 'pending';
    return {
      ...card,
      id: cardIds.get(pause.id)!,
      conversationId,
      toolCallId: linked ?? (pause.origin === 'limit' ? `limit_${uuid()}` : freshCallId()),
      expiresAt: null,
      restored: true,
      ...(pending ? { status: 'expired', expiredReason: 'abandoned' } : expiredReason ? { expiredReason } : {}),
      ...(card.limit ? { limit: { ...card.limit, atSeq: remapSeq(card.limit.atSeq) } } : {}),
    };
  });

  const ledger = (foreign.ledger ?? []).map((entry): LedgerEntry => {
    const toolCallId = latest.get(entry.toolCallId)?.id ?? freshCallId();
    return {
      ...clampLedgerEntry(entry, at),
      id: ledgerId(conversationId, toolCallId),
      conversationId,
      toolCallId,
      ...(entry.status === 'started' ? { restored: true } : {}),
    };
  });

  const turns = Math.max(foreign.conversation.turns, ...sorted.map((m) => (m.role === 'assistant' ? m.turnIndex + 1 : 0)), ...foreign.pausePoints.map((p) => p.turnIndex + 1));
  const { ownerDevice: _elsewhere, sampled: _sampled, instructionsOff: _off, versions, ...conversation } = clampConversation(foreign.conversation, at);
  return {
    conversation: {
      ...conversation,
      id: conversationId,
      state: inertState(conversation.state, from.source),
      turns,
      nextSeq,
      ...(conversation.instructions ? { instructionsOff: true } : {}),
      ...(versions ? { versions: remapVersions(versions, remapSeq) } : {}),
    },
    messages,
    pausePoints,
    ledger,
    attachmentIds,
  };
}

function notRun(answer: AssistantMessage, call: ToolCall, conversationId: string, id: string): Message {
  return {
    v: 1,
    id,
    conversationId,
    seq: 0,
    createdAt: answer.createdAt,
    ...(answer.branch === undefined ? {} : { branch: answer.branch }),
    role: 'tool',
    toolCallId: call.id,
    toolName: call.name,
    content: NOT_RUN_FROM_FILE,
    outcome: 'skipped',
  };
}

/** Working or waiting for a decision (every card of the file is closed now): interrupted, with Continue. */
function inertState(state: ConversationState, source: FromFile['source']): ConversationState {
  if (isActive(state) || state.kind === 'paused') return { kind: 'error', code: 'interrupted', message: INTERRUPTED_FROM_FILE[source], retryable: true };
  return state;
}

/** A version's fork point follows its message to its new place. */
function remapVersions(versions: Versions, remapSeq: (seq: number) => number): Versions {
  return { ...versions, branches: versions.branches.map((branch) => ({ ...branch, from: remapSeq(branch.from) })) };
}
