import type { EngineContext } from './engine-context.ts';
import { cardDeadline } from './pause-expiry.ts';
import type { CallUsage, Message, PausePoint } from './records/index.ts';
import { formatMoney } from './cost.ts';
import { checkLimits, estimatePromptTokens, type LimitBreach } from './spending.ts';

export type SpendingVerdict =
  | { go: true }
  /** A new card to store: the run pauses before the call. */
  | { go: false; ask: PausePoint }
  /** The run ends before the call; `notice` says why, when no decision message said it already. */
  | { go: false; stop: string | null };

const GO: SpendingVerdict = { go: true };

/**
 * Spending is an action: before each model call, a call that would pass a
 * limit asks, like any other action. The card belongs to one point of the
 * conversation — this call (`turnIndex`) after the user's latest message
 * (`limit.atSeq`) — so its decision holds for the retries of this call, and a
 * new message from the user, or the next call, is judged afresh. Pause
 * points are read only when a limit would be passed, so a conversation within
 * its limits costs one settings read per call — none where the host reads its
 * settings with the step.
 */
export async function spendingGate(
  ctx: EngineContext,
  conversationId: string,
  turns: number,
  history: readonly Message[],
  alongside?: unknown,
  /** What the conversation's MCP sampling calls used: spent like its answers, so counted with them. */
  sampled: readonly CallUsage[] = [],
  /** Every version's messages (Step.stored), when `history` is only the current one's: what the others cost was spent too. */
  stored?: readonly Message[],
): Promise<SpendingVerdict> {
  const spending = await ctx.settings.spending?.(alongside);
  if (!spending) return GO;
  const breach = stored ? checkLimits(stored, spending, { sampled, estimate: estimatePromptTokens(history) }) : checkLimits(history, spending, { sampled });
  if (!breach) return GO;

  const lastUserSeq = lastUserMessageSeq(history);
  const cards = await ctx.storage.listPausePoints(conversationId);
  // A card from a file (`restored`) decided nothing here: the limit asks again.
  const earlier = cards.filter((p) => p.origin === 'limit' && p.restored !== true && p.turnIndex === turns && p.limit !== undefined && p.limit.atSeq > lastUserSeq).at(-1);
  if (earlier?.status === 'resolved') return earlier.resolution === 'approve' ? GO : { go: false, stop: null };
  if (earlier?.status === 'expired') return { go: false, stop: `Stopped before the next model call: the card asking to pass the ${LIMIT_NAMES[breach.limit]} expired without a decision.` };
  if (earlier?.status === 'pending') return { go: false, stop: null };

  const now = ctx.clock.now();
  const deadline = await cardDeadline(ctx, now);
  const atSeq = (history.at(-1)?.seq ?? -1) + 1;
  return {
    go: false,
    ask: {
      v: 1,
      id: ctx.ids.uuid(),
      conversationId,
      turnIndex: turns,
      title: `Pass the ${LIMIT_NAMES[breach.limit]}?`,
      description: describeBreach(breach),
      options: null,
      payload: null,
      kind: 'approval',
      status: 'pending',
      resolution: null,
      resolvedAt: null,
      createdAt: now,
      origin: 'limit',
      toolCallId: `limit_${ctx.ids.uuid()}`,
      toolName: 'model call',
      ...deadline,
      // A model call past a limit spends money (risk-label.ts: riskOfPause).
      risk: 'changes',
      limit: { kind: breach.limit, used: breach.used, max: breach.max, estimate: breach.estimate, over: breach.over, atSeq },
    },
  };
}

const LIMIT_NAMES: Record<LimitBreach['limit'], string> = {
  tokens: 'token limit per conversation',
  cost: 'spending limit per conversation',
  day: 'spending limit per day',
};

/** The card's text: what was used, the limit, the estimate, and by how much approving may pass it. */
export function describeBreach(breach: LimitBreach): string {
  const amount = breach.limit === 'tokens' ? (n: number) => `${formatTokens(n)} tokens` : formatMoney;
  const scope = breach.limit === 'day' ? 'Today, all conversations have used' : 'This conversation has used';
  return [
    `${scope} **${amount(breach.used)}**; the ${LIMIT_NAMES[breach.limit]} is **${amount(breach.max)}**.`,
    `The next model call's prompt is estimated at **${amount(breach.estimate)}**${breach.limit === 'tokens' ? '' : ' (before its answer)'}.`,
    `If you approve, this call goes ahead and the limit may be passed by about **${amount(breach.over)}**. If you decline, the run stops here.`,
  ].join('\n\n');
}

/**
 * What a sampling request's card says when sending it would pass a limit:
 * its approval is the decision to pass it, as a limit card's is.
 */
export function describeSamplingBreach(breach: LimitBreach): string {
  const amount = breach.limit === 'tokens' ? (n: number) => `${formatTokens(n)} tokens` : formatMoney;
  const scope = breach.limit === 'day' ? 'today, all conversations have used' : 'this conversation has used';
  return `**This request would pass your ${LIMIT_NAMES[breach.limit]}:** ${scope} **${amount(breach.used)}** of **${amount(breach.max)}**, and its prompt is estimated at **${amount(breach.estimate)}**. Approving sends it anyway (by about **${amount(breach.over)}** over).`;
}

/** The notice a decision on a limit card writes: for the user, never sent to the model. */
export function limitDecisionNotice(card: PausePoint): string {
  const limit = card.limit;
  const name = limit ? LIMIT_NAMES[limit.kind] : 'limit';
  if (card.resolution !== 'approve') return `Stopped: you declined to pass the ${name}, so the model was not called.${card.reason ? ` (${card.reason})` : ''}`;
  const over = limit ? ` by about ${limit.kind === 'tokens' ? `${formatTokens(limit.over)} tokens` : formatMoney(limit.over)}` : '';
  return `You allowed the next model call past the ${name}: it may pass it${over}.`;
}

function lastUserMessageSeq(history: readonly Message[]): number {
  for (let i = history.length - 1; i >= 0; i--) {
    const m = history[i];
    if (m?.role === 'user' && !m.decision) return m.seq;
  }
  return -1;
}

function formatTokens(n: number): string {
  return Math.round(n).toLocaleString('en');
}
