/**
 * The one conversation every runner plays, and the one instant model every
 * runner talks to. Turn k: the user asks for a payment; the model's first
 * answer is a single `transfer` call, its second (once the call has a result)
 * a short text. Each runner only translates its own message format into
 * {@link ModelView}; the decision is made here, so the four runners cannot
 * drift apart.
 */

export const TURNS = 200;
/** Turns 1–20 and 181–200: the means the table compares. */
export const EARLY = { from: 1, to: 20 } as const;
export const LATE = { from: TURNS - 19, to: TURNS } as const;

export const TOOL_NAME = 'transfer';
export const TOOL_DESCRIPTION = 'Send money to someone.';

export interface TransferArgs {
  amount: number;
  to: string;
}

export function userText(turn: number): string {
  return `Turn ${turn}: please send ${amountFor(turn)} to bob.`;
}

export function amountFor(turn: number): number {
  return 500 + turn;
}

export function callIdFor(turn: number): string {
  return `call_${turn}`;
}

export function toolOutput(args: TransferArgs): string {
  return `sent ${args.amount} to ${args.to}`;
}

export function finalAnswer(turn: number): string {
  return `Done: ${amountFor(turn)} went to bob (turn ${turn}).`;
}

/** What the scripted model needs to know about a request, whatever its wire format. */
export interface ModelView {
  /** The text of the latest user message that opened a turn (`Turn k: …`). */
  turnText: string | undefined;
  /** Whether a tool result came after that message. */
  answered: boolean;
}

export type ScriptedReply =
  | { kind: 'call'; callId: string; name: string; args: TransferArgs }
  | { kind: 'text'; text: string };

const TURN_PATTERN = /^Turn (\d+):/;

export function isTurnText(text: string): boolean {
  return TURN_PATTERN.test(text);
}

/** The model: a tool call for an unanswered turn, a short answer once the call has its result. */
export function scriptedReply(view: ModelView): ScriptedReply {
  const turn = Number(TURN_PATTERN.exec(view.turnText ?? '')?.[1]);
  if (!Number.isInteger(turn)) throw new Error(`Scripted model: no turn message in the request (${view.turnText ?? 'none'}).`);
  if (view.answered) return { kind: 'text', text: finalAnswer(turn) };
  return { kind: 'call', callId: callIdFor(turn), name: TOOL_NAME, args: { amount: amountFor(turn), to: 'bob' } };
}

/**
 * Scans a request from its end: a tool result seen before the turn's user
 * message means the call was answered. Each runner supplies how to read its items.
 */
export function viewOf<T>(items: readonly T[], read: (item: T) => { toolResult: boolean; userText?: string }): ModelView {
  let answered = false;
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (item === undefined) continue;
    const { toolResult, userText: text } = read(item);
    if (toolResult) answered = true;
    if (text !== undefined && isTurnText(text)) return { turnText: text, answered };
  }
  return { turnText: undefined, answered };
}

/** Every runner's tool appends here, so the run can check each call ran exactly once with the scripted arguments. */
export class Executions {
  readonly #amounts: number[] = [];

  record(args: TransferArgs): string {
    this.#amounts.push(args.amount);
    return toolOutput(args);
  }

  /** Throws unless turns 1..n each ran their transfer exactly once, in order. */
  check(runner: string, turns: number): void {
    const wrong = this.#amounts.findIndex((amount, i) => amount !== amountFor(i + 1));
    if (this.#amounts.length !== turns || wrong !== -1) {
      throw new Error(`${runner}: expected ${turns} transfers in order, got ${this.#amounts.length} (first wrong at index ${wrong}).`);
    }
  }
}
