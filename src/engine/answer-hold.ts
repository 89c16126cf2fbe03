import { expiryReason } from './decision-message.ts';
import type { PausePoint, ToolOutcome } from './records/index.ts';

/**
 * What the model's own cards (its wait_for_approval calls) let the other calls
 * of the same answer do. The model asked the user before acting, so nothing
 * else in that answer acts before the user has answered:
 *
 * - `wait`: a card is pending. No other call of the answer runs or asks, even
 *   one written before the card, ungated or gated: the card may be about it,
 *   and whatever the user says next may change it. Gates ask only afterwards,
 *   so the user answers the model's question first and is never asked about
 *   a call that a decline is about to cancel.
 * - `go`: every card was approved as proposed. The calls go on; gated ones
 *   ask their own question as usual.
 * - `refuse`: a card was declined or expired, or answered in a way the calls
 *   could not have known when they were written (an option picked, a form
 *   filled, the payload edited): the calls are answered with this result and
 *   not run. The model reads the answer and can call again.
 *
 * `cards` are the answer's cards (newest per call), `asking` whether one was
 * just made and is not among them yet.
 */
export type AnswerHold = { kind: 'go' } | { kind: 'wait' } | { kind: 'refuse'; content: string; outcome: ToolOutcome };

export function answerHold(cards: readonly PausePoint[], asking: boolean): AnswerHold {
  if (asking || cards.some((card) => card.status === 'pending')) return { kind: 'wait' };
  for (const card of cards) {
    const refusal = refusalBy(card);
    if (refusal) return refusal;
  }
  return { kind: 'go' };
}

function refusalBy(card: PausePoint): Extract<AnswerHold, { kind: 'refuse' }> | null {
  const title = `“${card.title}”`;
  if (card.status === 'expired') {
    return { kind: 'refuse', content: `Not run: the approval request ${title} expired because ${expiryReason(card)}.`, outcome: 'expired' };
  }
  if (card.resolution === 'decline') return { kind: 'refuse', content: `Not run: the user declined ${title}.`, outcome: 'declined' };
  if (card.resolution === 'approve' && card.restored === true) {
    // An approval this browser did not see made (src/engine/restored-decisions.ts) lets nothing run.
    return {
      kind: 'refuse',
      content: `Not run: the approval of ${title} came from a restored backup, not from the user here. Ask again if it is still needed.`,
      outcome: 'skipped',
    };
  }
  if (card.resolution !== 'approve') {
    return {
      kind: 'refuse',
      content: `Not run: it was made in the same answer as the question ${title}, before the user answered. Call it again if it still fits the answer.`,
      outcome: 'skipped',
    };
  }
  if (card.editedPayload !== undefined) {
    return {
      kind: 'refuse',
      content: `Not run: the user edited ${title} before approving, and this call was made before the edit. Call it again with the approved values if it still fits.`,
      outcome: 'skipped',
    };
  }
  return null;
}
