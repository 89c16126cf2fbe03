import type { MessageDraft } from '../storage-port.ts';
import type { ApprovalRule, Conversation, LedgerEntry, PausePoint } from '../records/index.ts';

/**
 * Valid records with plain defaults, for tests. Override what the test is about;
 * the rest stays out of the way.
 */

export function makeConversation(overrides: Partial<Conversation> = {}): Conversation {
  return {
    v: 1,
    id: 'c1',
    title: 'A conversation',
    createdAt: 1_000,
    updatedAt: 1_000,
    state: { kind: 'idle' },
    turns: 0,
    nextSeq: 0,
    ...overrides,
  };
}

export function userDraft(conversationId: string, id: string, content = id, createdAt = 2_000): MessageDraft {
  return { v: 1, id, conversationId, createdAt, role: 'user', content };
}

export function makePausePoint(overrides: Partial<PausePoint> = {}): PausePoint {
  return {
    v: 1,
    id: 'p1',
    conversationId: 'c1',
    turnIndex: 0,
    title: 'Send the invoice?',
    description: 'Sends **1** invoice of 120 EUR to ada@example.com.',
    options: null,
    payload: { to: 'ada@example.com', amount: 120 },
    kind: 'approval',
    status: 'pending',
    resolution: null,
    resolvedAt: null,
    createdAt: 1_500,
    origin: 'gate',
    toolCallId: 'call_1',
    toolName: 'send_invoice',
    expiresAt: null,
    ...overrides,
  };
}

export function makeLedgerEntry(overrides: Partial<LedgerEntry> = {}): LedgerEntry {
  return {
    v: 1,
    id: 'c1:call_1',
    conversationId: 'c1',
    toolCallId: 'call_1',
    toolName: 'send_invoice',
    args: { to: 'ada@example.com', amount: 120 },
    status: 'started',
    attempts: 1,
    startedAt: 3_000,
    finishedAt: null,
    result: null,
    ...overrides,
  };
}

/** An enabled allow rule for every call of `transfer`, everywhere, bound to no definition. */
export function makeRule(overrides: Partial<ApprovalRule> = {}): ApprovalRule {
  return {
    v: 1,
    id: 'r1',
    effect: 'allow',
    tool: 'transfer',
    match: [],
    scope: { kind: 'everywhere' },
    source: 'settings',
    createdAt: 500,
    lastUsedAt: null,
    expiresAt: null,
    definitionHash: null,
    enabled: true,
    ...overrides,
  };
}
