import { makeConversation, makeLedgerEntry, makePausePoint } from '../../engine/testing/make-records.ts';
import type { ApprovalRule, Message } from '../../engine/records/index.ts';
import type { PausepointDb } from '../../storage/db.ts';

export const SEED_API_KEY = 'sk-test-never-in-a-backup-5f1e';
/** Saved for another endpoint's origin than the settings' own. */
export const SEED_OTHER_API_KEY = 'sk-or-also-never-in-a-backup-93a0';
export const SEED_DEVICE_ID = 'device-7c1d-never-in-a-backup';

export const SEED_ALLOW_RULE: ApprovalRule = {
  v: 1,
  id: 'r1',
  effect: 'allow',
  tool: 'http_request',
  match: [{ kind: 'url', pointer: '/url', origin: 'https://api.example.com' }],
  scope: { kind: 'everywhere' },
  source: 'card',
  createdAt: 1_300,
  lastUsedAt: 4_100,
  expiresAt: null,
  definitionHash: 'hash-of-http-request',
  enabled: true,
};
export const SEED_DENY_RULE: ApprovalRule = {
  v: 1,
  id: 'r2',
  effect: 'deny',
  tool: 'send_*',
  match: [],
  scope: { kind: 'conversation', conversationId: 'c1' },
  source: 'settings',
  createdAt: 1_400,
  lastUsedAt: null,
  expiresAt: null,
  reason: 'Nothing is sent from this conversation.',
  definitionHash: null,
  enabled: true,
};

/**
 * A small but complete database: two conversations (one paused with a pending
 * card, one with a decided and executed call), `messagesPerConversation`
 * messages each, a note, two approval rules (an allow rule everywhere, a deny
 * rule in c1), settings, API keys for two origins, and a device id.
 */
export async function seedDatabase(db: PausepointDb, { messagesPerConversation = 3 } = {}): Promise<void> {
  const messages = (conversationId: string): Message[] =>
    Array.from({ length: messagesPerConversation }, (_, seq) => ({
      v: 1,
      id: `${conversationId}-m${String(seq).padStart(4, '0')}`,
      conversationId,
      seq,
      createdAt: 2_000 + seq,
      role: 'user',
      content: `Message ${seq} of ${conversationId}`,
    }));
  await db.conversations.bulkPut([
    makeConversation({ id: 'c1', title: 'Invoices', state: { kind: 'paused', pending: 1 }, turns: 1, nextSeq: messagesPerConversation, updatedAt: 5_000 }),
    makeConversation({ id: 'c2', title: 'Newsletter', turns: 2, nextSeq: messagesPerConversation, updatedAt: 6_000 }),
  ]);
  await db.messages.bulkPut([...messages('c1'), ...messages('c2')]);
  await db.pausePoints.bulkPut([
    makePausePoint({ id: 'p1', conversationId: 'c1' }),
    makePausePoint({
      id: 'p2',
      conversationId: 'c2',
      toolCallId: 'call_2',
      status: 'resolved',
      resolution: 'approve',
      resolvedAt: 4_000,
      editedPayload: { to: 'ada@example.com', amount: 100 },
      decidedBy: { tabId: 'tab-1', deviceId: SEED_DEVICE_ID, label: 'Chromium on Linux' },
    }),
  ]);
  await db.ledger.bulkPut([makeLedgerEntry({ id: 'c2:call_2', conversationId: 'c2', toolCallId: 'call_2', status: 'succeeded', finishedAt: 4_500, result: 'Sent.' })]);
  await db.notes.bulkPut([{ v: 1, id: 'n1', title: 'Numbering', body: 'Invoices start at 42.', createdAt: 1_000, updatedAt: 1_200 }]);
  await db.approvalRules.bulkPut([SEED_ALLOW_RULE, SEED_DENY_RULE]);
  await db.settings.bulkPut([
    {
      key: 'settings',
      value: { v: 1, provider: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini', expiryMinutes: null, notifications: true, badge: false },
    },
    // Keys live in a row of their own, one per endpoint origin (src/storage/api-keys.ts).
    { key: 'apiKeys', value: { v: 1, keys: { 'https://api.openai.com': SEED_API_KEY, 'https://openrouter.ai': SEED_OTHER_API_KEY } } },
    { key: 'deviceId', value: SEED_DEVICE_ID },
  ]);
}
