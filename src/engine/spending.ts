import { buildRequest } from './build-request.ts';
import { costOf, priceOf, type ModelPrice } from './cost.ts';
import type { CallUsage, Message } from './records/index.ts';

export { costOf, formatMoney, priceOf, type ModelPrice } from './cost.ts';

/** What the user set in Settings; null means no limit. Money is in the user's own currency unit, like the prices. */
export interface SpendingLimits {
  tokensPerConversation: number | null;
  costPerConversation: number | null;
  costPerDay: number | null;
}

/** What the spending check reads before each model call (see `SettingsPort.spending`). */
export interface SpendingSettings {
  limits: SpendingLimits;
  prices: readonly ModelPrice[];
  /** The model the next call goes to: its input price prices the estimate. */
  model: string;
  /** What every conversation's calls since the start of today (the user's local day) cost. */
  spentToday: number;
}

export const NO_LIMITS: SpendingLimits = { tokensPerConversation: null, costPerConversation: null, costPerDay: null };

const MILLION = 1_000_000;

/** The usage of every call in a history made here, oldest first: an answer from a file (`fromFile`) was spent elsewhere, if at all. */
export function historyUsage(history: readonly Message[]): CallUsage[] {
  const out: CallUsage[] = [];
  for (const m of history) if (m.role === 'assistant' && m.usage && m.fromFile !== true) out.push(m.usage);
  return out;
}

/**
 * How many prompt tokens the next call will send: the previous call's prompt
 * as the endpoint counted it, or, before any counted call, the characters of
 * what would be sent divided by four (a common rule of thumb for English text).
 */
export function estimatePromptTokens(history: readonly Message[]): number {
  const used = historyUsage(history);
  const previous = used.at(-1);
  if (previous) return previous.prompt;
  let characters = 0;
  for (const message of buildRequest(history)) {
    if (typeof message.content === 'string') characters += message.content.length;
    if (message.role === 'assistant') for (const call of message.tool_calls ?? []) characters += call.function.name.length + call.function.arguments.length;
  }
  return Math.ceil(characters / 4);
}

/** A limit the next call would pass: what was used, the limit, and the estimate, in the limit's own unit. */
export interface LimitBreach {
  limit: 'tokens' | 'cost' | 'day';
  used: number;
  max: number;
  estimate: number;
  /** By how much the limit may be passed if the call goes ahead: used + estimate − max. */
  over: number;
}

/** What a conversation spent besides its answers, and the call being checked when it is not the next answer. */
export interface LimitCheck {
  /** The usage of the MCP sampling calls made for the conversation (`Conversation.sampled`). */
  sampled?: readonly CallUsage[];
  /** The prompt tokens of the call being checked, when it is not the next answer (a sampling request's). */
  estimate?: number;
}

/**
 * The first limit that the conversation's use so far — its answers and its
 * sampling calls — plus this call's estimate would pass, or null. Tokens
 * count prompt and completion; money counts the estimate at the next model's
 * input price (its answer is not known yet), so a model without a price never
 * trips a money limit.
 */
export function checkLimits(history: readonly Message[], spending: SpendingSettings, check: LimitCheck = {}): LimitBreach | null {
  const { limits, prices } = spending;
  if (limits.tokensPerConversation === null && limits.costPerConversation === null && limits.costPerDay === null) return null;
  const used = [...historyUsage(history), ...(check.sampled ?? [])];
  const estimate = check.estimate ?? estimatePromptTokens(history);
  const breach = (limit: LimitBreach['limit'], usedSoFar: number, max: number | null, next: number): LimitBreach | null =>
    max !== null && usedSoFar + next > max ? { limit, used: usedSoFar, max, estimate: next, over: usedSoFar + next - max } : null;

  const tokens = used.reduce((sum, u) => sum + u.prompt + u.completion, 0);
  const price = priceOf(prices, spending.model);
  const estimateCost = price ? (estimate * price.input) / MILLION : 0;
  const cost = used.reduce((sum, u) => sum + costOf(u, prices), 0);
  return (
    breach('tokens', tokens, limits.tokensPerConversation, estimate) ??
    breach('cost', cost, limits.costPerConversation, estimateCost) ??
    breach('day', spending.spentToday, limits.costPerDay, estimateCost)
  );
}
