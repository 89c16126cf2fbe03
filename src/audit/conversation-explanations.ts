import Dexie from 'dexie';
import { LedgerEntry, ledgerId } from '../engine/records/ledger-entry.ts';
import { AssistantMessage, ToolMessage, UserMessage } from '../engine/records/message.ts';
import type { PausePoint } from '../engine/records/pause-point.ts';
import type { Conversation } from '../engine/records/conversation.ts';
import { ROOT_BRANCH } from '../engine/records/root-branch.ts';
import type { PausepointDb } from '../storage/db.ts';
import { isoTime } from './iso-time.ts';
import type { AuditAttachment, AuditDecisionMessage, AuditToolCall, AuditToolResult } from './audit-entry.ts';
import { onPath } from '../engine/versions/current-path.ts';
import type { z } from 'zod';

/**
 * What an audit entry says of a call's ledger entry. Not its result text: the
 * file takes results from the tool messages, and a result can be large (a
 * fetched page), which a cache of many conversations should not hold.
 */
export type LedgerOutcome = Pick<LedgerEntry, 'id' | 'args' | 'attempts' | 'status' | 'startedAt' | 'finishedAt'>;

/** What one conversation's messages say about its pause points, keyed by tool call id and pause point id. */
export interface Explanation {
  title: string | null;
  toolCalls: Map<string, z.infer<typeof AuditToolCall>>;
  toolResults: Map<string, z.infer<typeof AuditToolResult>[]>;
  decisions: Map<string, z.infer<typeof AuditDecisionMessage>>;
  /** Per tool call id: the files attached before the model proposed it, in its version; only calls that had some. */
  attachments: Map<string, AuditAttachment[]>;
  /** The conversation's ledger entries by id (`ledgerId`); empty unless constructed with `withLedger`. */
  ledger: Map<string, LedgerOutcome>;
  /** The generation (see `beginGeneration`) in which its messages were read. */
  generation: number;
  /** The generation in which its ledger entries were read (a ledger can be read again on its own). */
  ledgerGeneration: number;
  weight: number;
}

const CHUNK = 2000;

/**
 * The messages that explain pause points, read one conversation at a time.
 *
 * The messages table is indexed by `[conversationId+seq]` only, so a tool call,
 * its result and the decision message cannot be fetched by id: a conversation's
 * messages are read in `seq` chunks and only those three kinds are kept, in maps
 * (prototype-free lookups: the ids are stored, untrusted text). Explanations are
 * cached, least recently used first out, so a conversation whose pause points
 * span many export pages is read once.
 *
 * A cached explanation can be older than a pause point read later (a decision
 * made during the export); `explain` re-reads a conversation once per generation
 * when something a pause point implies is missing.
 *
 * With `withLedger` (the export), a conversation's ledger entries are kept too,
 * read by one primary key range (ids are `${conversationId}:${toolCallId}`):
 * that costs a fraction of fetching each pause point's entry by id. The ledger
 * has its own freshness rule, see `ledgerMayBeBehind`.
 */
export class ConversationExplanations {
  readonly #db: PausepointDb;
  readonly #maxWeight: number;
  readonly #cache = new Map<string, Explanation>();
  #weight = 0;
  #generation = 0;

  readonly #withLedger: boolean;

  constructor(db: PausepointDb, { maxWeight = 50_000, withLedger = false }: { maxWeight?: number; withLedger?: boolean } = {}) {
    this.#db = db;
    this.#maxWeight = maxWeight;
    this.#withLedger = withLedger;
  }

  /** The weight of what is cached (messages and ledger entries kept, plus one per conversation). */
  get cachedWeight(): number {
    return this.#weight;
  }

  /** Call before reading a page of pause points: explanations read earlier may predate it. */
  beginGeneration(): void {
    this.#generation++;
  }

  /**
   * Explanations for the conversations of these pause points (all of them kept
   * until the next call). What must be read is read in one transaction, every
   * conversation's requests issued at once: in a browser each request is a
   * round trip to the storage process, and one after another they left the
   * export waiting on IndexedDB for a third of its time.
   */
  async explain(pausePoints: readonly PausePoint[]): Promise<Map<string, Explanation>> {
    const needed = new Map<string, PausePoint[]>();
    for (const pp of pausePoints) {
      const list = needed.get(pp.conversationId);
      if (list) list.push(pp);
      else needed.set(pp.conversationId, [pp]);
    }
    const found = new Map<string, Explanation>();
    /** The explanations to read, each as the reads it needs; made together below. */
    const reads: [string, () => Promise<Explanation>][] = [];
    for (const [conversationId, pps] of needed) {
      const explanation = this.#take(conversationId);
      if (!explanation || (explanation.generation < this.#generation && pps.some((pp) => lacksSomething(explanation, pp)))) {
        reads.push([conversationId, () => this.#read(conversationId)]);
      } else if (this.#withLedger && explanation.ledgerGeneration < this.#generation && pps.some((pp) => ledgerMayBeBehind(explanation, pp))) {
        // A new object, not an update: a page read earlier may still be chaining with the old one.
        reads.push([
          conversationId,
          async () => {
            const ledger = await this.#readLedger(conversationId);
            return { ...explanation, ledger, ledgerGeneration: this.#generation, weight: explanation.weight - explanation.ledger.size + ledger.size };
          },
        ]);
      } else found.set(conversationId, explanation);
    }
    if (reads.length > 0) {
      const { conversations, messages, ledger } = this.#db;
      await this.#db.transaction('r', this.#withLedger ? [conversations, messages, ledger] : [conversations, messages], () =>
        Promise.all(reads.map(async ([conversationId, read]) => found.set(conversationId, await read()))),
      );
    }
    for (const [conversationId, explanation] of found) this.#put(conversationId, explanation);
    this.#evict(found);
    return found;
  }

  #take(conversationId: string): Explanation | undefined {
    const explanation = this.#cache.get(conversationId);
    if (explanation) {
      this.#cache.delete(conversationId);
      this.#weight -= explanation.weight;
    }
    return explanation;
  }

  #put(conversationId: string, explanation: Explanation): void {
    // Two overlapping calls (the audit view opening two rows at once) may both have read it.
    this.#take(conversationId);
    this.#cache.set(conversationId, explanation);
    this.#weight += explanation.weight;
  }

  /** Drops the least recently used explanations over the weight limit, never one the current page uses. */
  #evict(inUse: Map<string, Explanation>): void {
    for (const [conversationId, explanation] of this.#cache) {
      if (this.#weight <= this.#maxWeight) return;
      if (inUse.has(conversationId)) continue;
      this.#cache.delete(conversationId);
      this.#weight -= explanation.weight;
    }
  }

  async #read(conversationId: string): Promise<Explanation> {
    const explanation: Explanation = {
      title: null,
      toolCalls: new Map(),
      toolResults: new Map(),
      decisions: new Map(),
      attachments: new Map(),
      ledger: new Map(),
      generation: this.#generation,
      ledgerGeneration: this.#generation,
      weight: 1,
    };
    const files: FilesSeen = { attached: [], calls: new Map() };
    // Issued together: the three reads wait on the storage process side by side.
    const [ledger, conversation] = await Promise.all([
      this.#withLedger ? this.#readLedger(conversationId) : undefined,
      this.#db.conversations.get(conversationId),
      this.#readMessages(conversationId, explanation, files),
    ]);
    placeAttachments(explanation, files, conversation);
    if (ledger) {
      explanation.ledger = ledger;
      explanation.weight += ledger.size;
    }
    if (conversation && typeof conversation.title === 'string') explanation.title = conversation.title;
    return explanation;
  }

  /** Keeps what explains pause points from the conversation's messages, read in `seq` chunks. */
  async #readMessages(conversationId: string, explanation: Explanation, files: FilesSeen): Promise<void> {
    let after: number | undefined;
    for (;;) {
      const lower = after === undefined ? [conversationId, Dexie.minKey] : [conversationId, after];
      const chunk: unknown[] = await this.#db.messages
        .where('[conversationId+seq]')
        .between(lower, [conversationId, Dexie.maxKey], after === undefined, true)
        .limit(CHUNK)
        .toArray();
      for (const message of chunk) keep(explanation, message, files);
      const lastSeq = (chunk[chunk.length - 1] as { seq?: unknown } | undefined)?.seq;
      if (chunk.length < CHUNK || typeof lastSeq !== 'number') return;
      after = lastSeq;
    }
  }

  /**
   * Every ledger entry whose id starts with `${conversationId}:`: the range up
   * to the same prefix with ';' (the character after ':') holds exactly those.
   * It is the entry `ledgerId(conversationId, toolCallId)` names for each of
   * the conversation's pause points, as a lookup by id would find it. A
   * malformed entry reads as none: the file then says the call never ran.
   */
  async #readLedger(conversationId: string): Promise<Map<string, LedgerOutcome>> {
    const stored: unknown[] = await this.#db.ledger.where(':id').between(`${conversationId}:`, `${conversationId};`, true, false).toArray();
    const ledger = new Map<string, LedgerOutcome>();
    for (const record of stored) {
      const parsed = LedgerEntry.safeParse(record);
      if (!parsed.success) continue;
      const { id, args, attempts, status, startedAt, finishedAt } = parsed.data;
      ledger.set(id, { id, args, attempts, status, startedAt, finishedAt });
    }
    return ledger;
  }
}

/**
 * Whether the pause point implies a message the explanation does not have: its
 * tool call always; a decision message once decided by a person, and once
 * expired when the model asked (the engine answers an expired gate, and a
 * rule's decision, through the call's result).
 */
function lacksSomething(explanation: Explanation, pp: PausePoint): boolean {
  const decisionExpected = (pp.status === 'resolved' && pp.origin !== 'rule') || (pp.status === 'expired' && pp.origin === 'model');
  return !explanation.toolCalls.has(pp.toolCallId) || (decisionExpected && !explanation.decisions.has(pp.id));
}

/**
 * Whether the cached ledger may be behind what this pause point (read after
 * it) implies, so that the conversation's ledger is read again (once per
 * generation). An entry only moves forward: written `started` when the call
 * runs, it may become `unknown` and then `started` again, and ends
 * `succeeded`, `failed` or `skipped`, which is never reopened
 * (execute-call.ts, settle-open-calls.ts). So:
 * - a cached entry that is `started` or `unknown` may have moved on;
 * - a missing one may have been written since, if the pause point says the
 *   call was let run (a card or rule approved it) or was running (a question
 *   about its unknown outcome, or asked by the tool while it ran);
 * - a finished entry stays as cached, and so does a missing one when the
 *   call was not let run (pending, declined, expired), or the pause is not
 *   about running a tool (the model's own cards, spending limits).
 */
function ledgerMayBeBehind(explanation: Explanation, pp: PausePoint): boolean {
  const entry = explanation.ledger.get(ledgerId(pp.conversationId, pp.toolCallId));
  if (entry) return entry.status === 'started' || entry.status === 'unknown';
  switch (pp.origin) {
    case 'unknown_outcome':
    case 'elicitation':
      return true;
    case 'gate':
    case 'rule':
      return pp.status === 'resolved' && pp.resolution === 'approve';
    case 'model':
    case 'limit':
      return false;
  }
}

/** Where a conversation's files and calls stand, read with its messages, to tell which files each call followed. */
interface FilesSeen {
  attached: { seq: number; branch: string | undefined; files: AuditAttachment[] }[];
  calls: Map<string, { seq: number; branch: string | undefined }>;
}

/**
 * Names, for each call, the files attached before it in the version it was
 * made in (a file of another version was never given to the model that made
 * it). Versions come from the conversation record, read beside the messages.
 */
function placeAttachments(explanation: Explanation, seen: FilesSeen, conversation: unknown): void {
  if (seen.attached.length === 0) return;
  const versions = (conversation as Conversation | undefined)?.versions;
  for (const [callId, call] of seen.calls) {
    const inVersion = versions ? onPath({ ...versions, current: call.branch ?? ROOT_BRANCH }) : () => true;
    const files = seen.attached.filter((m) => m.seq < call.seq && inVersion(m)).flatMap((m) => m.files);
    if (files.length === 0) continue;
    explanation.attachments.set(callId, files);
    explanation.weight += files.length;
  }
}

/** Keeps a message if it is one that explains a pause point; anything malformed is left out. */
function keep(explanation: Explanation, message: unknown, files: FilesSeen): void {
  const role = (message as { role?: unknown } | null)?.role;
  if (role === 'assistant') {
    const parsed = AssistantMessage.safeParse(message);
    if (!parsed.success) return;
    const { id, seq, branch, turnIndex, createdAt, toolCalls, usage } = parsed.data;
    const created = isoTime(createdAt);
    if (created === null) return;
    for (const call of toolCalls) {
      if (explanation.toolCalls.has(call.id)) continue;
      files.calls.set(call.id, { seq, branch });
      explanation.toolCalls.set(call.id, {
        arguments: call.arguments,
        created_at: created,
        id: call.id,
        message_id: id,
        name: call.name,
        turn_index: turnIndex,
        ...(usage
          ? {
              usage: {
                cached_tokens: usage.cached,
                completion_tokens: usage.completion,
                model: usage.model,
                prompt_tokens: usage.prompt,
                reasoning_tokens: usage.reasoning,
              },
            }
          : {}),
      });
      explanation.weight++;
    }
  } else if (role === 'tool') {
    const parsed = ToolMessage.safeParse(message);
    if (!parsed.success) return;
    const { id, seq, content, outcome, createdAt, toolCallId } = parsed.data;
    const created = isoTime(createdAt);
    if (created === null) return;
    const result = { content, created_at: created, id, outcome, seq };
    const list = explanation.toolResults.get(toolCallId);
    if (list) list.push(result);
    else explanation.toolResults.set(toolCallId, [result]);
    explanation.weight++;
  } else if (role === 'user' && (message as { attachments?: unknown }).attachments !== undefined) {
    const parsed = UserMessage.safeParse(message);
    if (!parsed.success || !parsed.data.attachments) return;
    const { id, seq, branch, attachments } = parsed.data;
    files.attached.push({ seq, branch, files: attachments.map(({ name, type, size, sha256 }) => ({ message_id: id, name, sha256, size, type })) });
  } else if (role === 'user' && (message as { decision?: unknown }).decision !== undefined) {
    const parsed = UserMessage.safeParse(message);
    if (!parsed.success || !parsed.data.decision) return;
    const { id, seq, content, createdAt, decision } = parsed.data;
    const created = isoTime(createdAt);
    if (created === null || explanation.decisions.has(decision.pausePointId)) return;
    explanation.decisions.set(decision.pausePointId, { content, created_at: created, id, seq });
    explanation.weight++;
  }
}
