import { attachmentsOf } from './attachments-port.ts';
import { buildRequest, type RequestInstructions } from './build-request.ts';
import { STREAM_WRITE_INTERVAL_MS } from './engine-options.ts';
import type { EngineContext } from './engine-context.ts';
import { HeldAnswer } from './held-answer.ts';
import type { IdPort } from './id-port.ts';
import type { ModelPort } from './model-port.ts';
import { addUsage, type AssistantMessage, type CallUsage, type Conversation, type ConversationState, type Message, type ToolCall } from './records/index.ts';

export interface TurnStart {
  conversationId: string;
  /** The answer's place among the conversation's model calls (its `turns` before this one). */
  turnIndex: number;
  /** Written with the final message when the answer calls no tools (the run ends there), in its transaction. */
  stateWhenAnswered: ConversationState;
  /** Every stored message of every version, when the history asked from is only the current one's (Step.stored). */
  stored?: readonly Message[];
}

/**
 * One model call. The assistant message is stored with its first text (the
 * first snapshot, at most every STREAM_WRITE_INTERVAL_MS) or at its end if
 * that comes first — except an answer with tool calls and no text stored yet,
 * which is handed back unstored (a HeldAnswer) for the caller to store with
 * what its calls bring — so a tab that dies mid-stream leaves its partial text
 * behind, and a tab that dies before any text leaves only the question, which
 * the recovering tab asks again. On failure the partial text is kept and
 * marked interrupted; the caller decides on retries.
 *
 * Once the message is final (complete or interrupted) it is never written
 * again, not even by a late `onText`: the history cache keeps final messages.
 */
export async function streamAssistantTurn(
  ctx: EngineContext,
  model: ModelPort,
  { conversationId, turnIndex, stateWhenAnswered, stored: every }: TurnStart,
  history: readonly Message[],
  signal: AbortSignal,
  instructions: RequestInstructions = {},
): Promise<AssistantMessage | HeldAnswer> {
  const { clock } = ctx;
  const stored = every ?? history;
  const message = new StoredAnswer(ctx, conversationId, turnIndex);
  let text = '';
  let streaming = true;
  let lastWrite = clock.now();
  const onText = (delta: string) => {
    if (!streaming) return;
    text += delta;
    const now = clock.now();
    if (now - lastWrite < STREAM_WRITE_INTERVAL_MS) return;
    lastWrite = now;
    message.save(text);
  };

  try {
    const refs = attachmentsOf(history);
    const attachments = refs.length > 0 ? await ctx.attachments.read(refs) : undefined;
    const result = await model.complete({ messages: buildRequest(history, instructions, attachments), tools: ctx.tools.specs, signal, onText });
    streaming = false;
    // Unique across every version: an id another version used has that call's cards and ledger entry.
    const toolCalls = uniqueCallIds(result.toolCalls, stored, ctx.ids);
    const answered = toolCalls.length === 0;
    const usage = result.usage;
    // The call's usage joins the conversation's totals in the transaction that stores its answer: they never disagree.
    const update =
      answered || usage
        ? (c: Conversation): Conversation => ({
            ...c,
            ...(answered ? { state: stateWhenAnswered } : {}),
            ...(usage ? { usage: addUsage(c.usage, usage) } : {}),
          })
        : undefined;
    const content = result.content || text;
    if (!answered) {
      const held = message.held(content, toolCalls, update, usage, (stored.at(-1)?.seq ?? -1) + 1);
      if (held) return held;
    }
    return await message.finish(content, toolCalls, update, usage);
  } catch (error) {
    streaming = false;
    await message.interrupt(text);
    throw error;
  }
}

/**
 * The assistant message of one model call as storage knows it: appended by
 * its first write (counting the turn), replaced by later ones. Writes are
 * chained so an older snapshot never lands after a newer one.
 */
class StoredAnswer {
  readonly #ctx: EngineContext;
  readonly #conversationId: string;
  readonly #draft: Omit<AssistantMessage, 'seq'>;
  #stored: AssistantMessage | undefined;
  #writing: Promise<void> = Promise.resolve();
  /** Whether a snapshot write was ever started: then the answer is in storage, or on its way. */
  #saving = false;

  constructor(ctx: EngineContext, conversationId: string, turnIndex: number) {
    this.#ctx = ctx;
    this.#conversationId = conversationId;
    // `turns` only moves with this message's first write, under the conversation's lock, so the caller's count is current.
    this.#draft = {
      v: 1,
      id: ctx.ids.uuid(),
      conversationId,
      createdAt: ctx.clock.now(),
      role: 'assistant',
      content: '',
      toolCalls: [],
      turnIndex,
      status: 'streaming',
    };
  }

  /** A streamed snapshot; a failed one does not matter, the final write replaces it. */
  save(content: string): void {
    this.#saving = true;
    this.#writing = this.#writing
      .then(() => this.#write({ content, status: 'streaming' }, undefined))
      .then(
        () => undefined,
        () => undefined,
      );
  }

  async finish(
    content: string,
    toolCalls: ToolCall[],
    update: ((c: Conversation) => Conversation) | undefined,
    usage: CallUsage | undefined,
  ): Promise<AssistantMessage> {
    await this.#writing;
    return this.#write({ content, toolCalls, status: 'complete', ...(usage ? { usage } : {}) }, update);
  }

  /** The final answer unstored, when no snapshot of it was stored (else undefined: it is finished as usual). */
  held(
    content: string,
    toolCalls: ToolCall[],
    update: ((c: Conversation) => Conversation) | undefined,
    usage: CallUsage | undefined,
    seq: number,
  ): HeldAnswer | undefined {
    if (this.#saving) return undefined;
    const draft = { ...this.#draft, content, toolCalls, status: 'complete' as const, ...(usage ? { usage } : {}) };
    return new HeldAnswer(this.#ctx.storage, draft, (c) => this.#touch({ ...c, turns: c.turns + 1 }, update), seq);
  }

  /** Keeps whatever text came; a call that failed before its first write and with no text leaves nothing behind. */
  async interrupt(content: string): Promise<void> {
    await this.#writing;
    if (!this.#stored && content === '') return;
    await this.#write({ content, status: 'interrupted' }, undefined);
  }

  #touch(c: Conversation, update: ((c: Conversation) => Conversation) | undefined): Conversation {
    const touched = { ...c, updatedAt: Math.max(c.updatedAt, this.#ctx.clock.now()) };
    return update ? update(touched) : touched;
  }

  async #write(
    change: Pick<AssistantMessage, 'content' | 'status'> & Partial<Pick<AssistantMessage, 'toolCalls' | 'usage'>>,
    update: ((c: Conversation) => Conversation) | undefined,
  ): Promise<AssistantMessage> {
    const { storage } = this.#ctx;
    const touch = (c: Conversation) => this.#touch(c, update);
    if (this.#stored) {
      const next: AssistantMessage = { ...this.#stored, ...change };
      await storage.putMessage(next, update && touch);
      return (this.#stored = next);
    }
    const [appended] = await storage.appendMessages(this.#conversationId, [{ ...this.#draft, ...change }], (c) => touch({ ...c, turns: c.turns + 1 }));
    return (this.#stored = appended as AssistantMessage);
  }
}

/**
 * Tool call ids key pause points and the execution ledger, so they must be
 * unique within a conversation. Some compatible endpoints reuse ids across
 * turns (`call_0` every time); a reused id would let a new call inherit an old
 * call's approval or its "already ran" ledger entry. Such ids are replaced
 * before anything is stored, and the model sees the replacements from then on.
 */
export function uniqueCallIds(calls: readonly ToolCall[], history: readonly Message[], ids: IdPort): ToolCall[] {
  const used = new Set<string>();
  for (const m of history) if (m.role === 'assistant') for (const call of m.toolCalls) used.add(call.id);
  return calls.map((call) => {
    const id = call.id && !used.has(call.id) ? call.id : `call_${ids.uuid()}`;
    used.add(id);
    return id === call.id ? call : { ...call, id };
  });
}
