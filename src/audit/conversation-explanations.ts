import Dexie from 'dexie';
import { AssistantMessage, ToolMessage, UserMessage } from '../engine/records/message.ts';
import type { PausePoint } from '../engine/records/pause-point.ts';
import type { PausepointDb } from '../storage/db.ts';
import { isoTime } from './iso-time.ts';
import type { AuditDecisionMessage, AuditToolCall, AuditToolResult } from './audit-entry.ts';
import type { z } from 'zod';

/** What one conversation's messages say about its pause points, keyed by tool call id and pause point id. */
export interface Explanation {
  title: string | null;
  toolCalls: Map<string, z.infer<typeof AuditToolCall>>;
  toolResults: Map<string, z.infer<typeof AuditToolResult>[]>;
  decisions: Map<string, z.infer<typeof AuditDecisionMessage>>;
  /** The generation (see `beginGeneration`) in which it was read. */
  generation: number;
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
 */
export class ConversationExplanations {
  readonly #db: PausepointDb;
  readonly #maxWeight: number;
  readonly #cache = new Map<string, Explanation>();
  #weight = 0;
  #generation = 0;

  constructor(db: PausepointDb, { maxWeight = 50_000 }: { maxWeight?: number } = {}) {
    this.#db = db;
    this.#maxWeight = maxWeight;
  }

  /** The weight of what is cached (messages kept, plus one per conversation). */
  get cachedWeight(): number {
    return this.#weight;
  }

  /** Call before reading a page of pause points: explanations read earlier may predate it. */
  beginGeneration(): void {
    this.#generation++;
  }

  /** Explanations for the conversations of these pause points (all of them kept until the next call). */
  async explain(pausePoints: readonly PausePoint[]): Promise<Map<string, Explanation>> {
    const needed = new Map<string, PausePoint[]>();
    for (const pp of pausePoints) {
      const list = needed.get(pp.conversationId);
      if (list) list.push(pp);
      else needed.set(pp.conversationId, [pp]);
    }
    const found = new Map<string, Explanation>();
    for (const [conversationId, pps] of needed) {
      let explanation = this.#take(conversationId);
      if (!explanation || (explanation.generation < this.#generation && pps.some((pp) => lacksSomething(explanation!, pp)))) {
        explanation = await this.#read(conversationId);
      }
      found.set(conversationId, explanation);
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
      generation: this.#generation,
      weight: 1,
    };
    const conversation = await this.#db.conversations.get(conversationId);
    if (conversation && typeof conversation.title === 'string') explanation.title = conversation.title;

    let after: number | undefined;
    for (;;) {
      const lower = after === undefined ? [conversationId, Dexie.minKey] : [conversationId, after];
      const chunk: unknown[] = await this.#db.messages
        .where('[conversationId+seq]')
        .between(lower, [conversationId, Dexie.maxKey], after === undefined, true)
        .limit(CHUNK)
        .toArray();
      for (const message of chunk) keep(explanation, message);
      const lastSeq = (chunk[chunk.length - 1] as { seq?: unknown } | undefined)?.seq;
      if (chunk.length < CHUNK || typeof lastSeq !== 'number') break;
      after = lastSeq;
    }
    return explanation;
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


/** Keeps a message if it is one that explains a pause point; anything malformed is left out. */
function keep(explanation: Explanation, message: unknown): void {
  const role = (message as { role?: unknown } | null)?.role;
  if (role === 'assistant') {
    const parsed = AssistantMessage.safeParse(message);
    if (!parsed.success) return;
    const { id, turnIndex, createdAt, toolCalls, usage } = parsed.data;
    const created = isoTime(createdAt);
    if (created === null) return;
    for (const call of toolCalls) {
      if (explanation.toolCalls.has(call.id)) continue;
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
