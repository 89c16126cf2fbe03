import { describe, expect, it } from 'vitest';
import { batchSummary } from './batch-summary.ts';

const cards = [
  { id: 'p1', title: 'Pay Ada' },
  { id: 'p2', title: 'Pay Bob' },
  { id: 'p3', title: 'Pay Cy' },
  { id: 'p4', title: 'Pay Di' },
];

describe('batchSummary', () => {
  it('says how many were decided and names each card that was not, and why', () => {
    expect(
      batchSummary('approve', cards, {
        batchId: 'b',
        cards: [
          { pausePointId: 'p1', result: { outcome: 'decided' } },
          { pausePointId: 'p2', result: { outcome: 'already_decided', status: 'resolved' } },
          { pausePointId: 'p3', result: { outcome: 'already_decided', status: 'expired' } },
          { pausePointId: 'p4', result: { outcome: 'failed', message: 'Storage is full.' } },
        ],
      }),
    ).toEqual([
      'Approved 1 of 4.',
      'Skipped “Pay Bob”: it was decided elsewhere first.',
      'Skipped “Pay Cy”: it expired before your decision.',
      'Not decided: “Pay Di”: Storage is full.',
    ]);
  });

  it('a decline batch says Declined', () => {
    expect(batchSummary('decline', cards.slice(0, 1), { batchId: 'b', cards: [{ pausePointId: 'p1', result: { outcome: 'decided' } }] })).toEqual(['Declined 1 of 1.']);
  });
});
