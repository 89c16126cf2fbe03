import type { BatchResult } from '../../engine/batch-decision.ts';
import { VIEW_CHANGED } from './card-view.ts';
import type { PausePoint } from '../../engine/records/index.ts';

/**
 * What one Approve all / Decline all came to, in words: how many were
 * decided, and by name each card that was not — decided elsewhere first (and
 * skipped), expired, gone, refused or not sent.
 */
export function batchSummary(type: 'approve' | 'decline', cards: readonly Pick<PausePoint, 'id' | 'title'>[], result: BatchResult): string[] {
  const titleOf = new Map(cards.map((card) => [card.id, card.title]));
  const named = (id: string) => `“${titleOf.get(id) ?? id}”`;
  const decided = result.cards.filter((c) => c.result.outcome === 'decided').length;
  const lines = [`${type === 'approve' ? 'Approved' : 'Declined'} ${decided} of ${result.cards.length}.`];
  for (const { pausePointId, result: r } of result.cards) {
    switch (r.outcome) {
      case 'decided':
        break;
      case 'already_decided':
        lines.push(
          r.status === 'expired'
            ? `Skipped ${named(pausePointId)}: it expired before your decision.`
            : `Skipped ${named(pausePointId)}: it was decided elsewhere first${r.decidedBy ? ` (${r.decidedBy.label})` : ''}.`,
        );
        break;
      case 'expired':
        lines.push(`Skipped ${named(pausePointId)}: it expired before your decision.`);
        break;
      case 'not_found':
        lines.push(`Skipped ${named(pausePointId)}: it no longer exists.`);
        break;
      case 'changed':
        lines.push(`Not decided: ${named(pausePointId)}: ${VIEW_CHANGED}.`);
        break;
      case 'invalid':
      case 'failed':
        lines.push(`Not decided: ${named(pausePointId)}: ${r.message}`);
        break;
    }
  }
  return lines;
}
