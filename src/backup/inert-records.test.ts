import { describe, expect, it } from 'vitest';
import type { ApprovalRule, ConversationState } from '../engine/records/index.ts';
import { makeConversation, makePausePoint } from '../engine/testing/make-records.ts';
import type { BackupRecords } from './backup-format.ts';
import { inertRecords, RESTORED_INTERRUPTED_MESSAGE } from './inert-records.ts';
import { SEED_ALLOW_RULE, SEED_DENY_RULE } from './testing/seed-database.ts';

const INTERRUPTED: ConversationState = { kind: 'error', code: 'interrupted', message: RESTORED_INTERRUPTED_MESSAGE, retryable: true };

function records(overrides: Partial<BackupRecords>): BackupRecords {
  return { conversations: [], messages: [], pausePoints: [], ledger: [], notes: [], approvalRules: [], auditEvents: [], ...overrides };
}

function stateAfterRestore(state: ConversationState, pendingCards = 0): ConversationState | undefined {
  const cards = Array.from({ length: pendingCards }, (_, i) => makePausePoint({ id: `p${i}`, conversationId: 'c1' }));
  return inertRecords(records({ conversations: [makeConversation({ state })], pausePoints: cards })).conversations[0]?.state;
}

describe('inertRecords: conversation states', () => {
  it.each<ConversationState>([
    { kind: 'running', owner: 'tab-elsewhere', since: 1 },
    { kind: 'retrying', owner: 'tab-elsewhere', attempt: 2, retryAt: 9, reason: 'rate limited' },
    { kind: 'waiting_for_network', owner: 'tab-elsewhere', since: 1 },
  ])('a conversation that was $kind comes back interrupted, waiting for Continue', (state) => {
    expect(stateAfterRestore(state)).toEqual(INTERRUPTED);
  });

  it('a paused conversation stays paused while it has pending cards, counted from the cards in the file', () => {
    expect(stateAfterRestore({ kind: 'paused', pending: 1 }, 1)).toEqual({ kind: 'paused', pending: 1 });
    expect(stateAfterRestore({ kind: 'paused', pending: 7 }, 2)).toEqual({ kind: 'paused', pending: 2 });
  });

  it('a paused conversation with no pending card left was about to go on: it comes back interrupted', () => {
    expect(stateAfterRestore({ kind: 'paused', pending: 1 })).toEqual(INTERRUPTED);
  });

  it('idle and error states are kept', () => {
    expect(stateAfterRestore({ kind: 'idle' })).toEqual({ kind: 'idle' });
    const failed: ConversationState = { kind: 'error', code: 'auth', message: 'Bad key.', retryable: false };
    expect(stateAfterRestore(failed)).toEqual(failed);
  });
});

describe('inertRecords: where a conversation runs', () => {
  it('a conversation comes back without the device it ran on, so it runs here', () => {
    const [restored] = inertRecords(records({ conversations: [makeConversation({ ownerDevice: { id: 'laptop', name: 'Laptop' } })] })).conversations;
    expect(restored).not.toHaveProperty('ownerDevice');
  });
});

describe('inertRecords: pause points', () => {
  it('marks every decided or expired card as restored', () => {
    const decided = makePausePoint({ id: 'd', status: 'resolved', resolution: 'approve', resolvedAt: 2 });
    const expired = makePausePoint({ id: 'e', status: 'expired', resolvedAt: 2, expiredReason: 'timeout' });
    expect(inertRecords(records({ pausePoints: [decided, expired] })).pausePoints).toEqual([
      { ...decided, restored: true },
      { ...expired, restored: true },
    ]);
  });

  it('keeps a pending card pending, without the other browser’s expiry and without a restored mark a file may claim', () => {
    const card = makePausePoint({ expiresAt: 60_000, restored: true });
    const [restored] = inertRecords(records({ pausePoints: [card] })).pausePoints;
    expect(restored).toMatchObject({ status: 'pending', expiresAt: null });
    expect(restored).not.toHaveProperty('restored');
  });
});

describe('inertRecords: approval rules', () => {
  it('switches allow rules off and keeps ask and deny rules on, all marked as from a backup', () => {
    const ask: ApprovalRule = { ...SEED_DENY_RULE, id: 'r3', effect: 'ask', enabled: false };
    expect(inertRecords(records({ approvalRules: [SEED_ALLOW_RULE, SEED_DENY_RULE, ask] })).approvalRules).toEqual([
      { ...SEED_ALLOW_RULE, source: 'backup', enabled: false },
      { ...SEED_DENY_RULE, source: 'backup', enabled: true },
      { ...ask, source: 'backup', enabled: true },
    ]);
  });
});
