import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { PausepointDb } from '../storage/db.ts';
import { useTestDb } from '../storage/testing/open-test-db.ts';
import { ConversationExplanations } from './conversation-explanations.ts';
import { SCENARIO, seedAuditDb, T0 } from './testing/seed-audit-db.ts';

let db: PausepointDb;
useTestDb((fresh) => (db = fresh));
beforeEach(async () => {
  await seedAuditDb(db);
});

describe('ConversationExplanations', () => {
  it('reads what a page needs in one transaction, all its conversations side by side, and nothing for what it has cached', async () => {
    const explanations = new ConversationExplanations(db, { withLedger: true });
    const pps = await db.pausePoints.toArray();
    const conversations = new Set(pps.map((pp) => pp.conversationId));
    expect(conversations.size).toBeGreaterThan(2);
    const transactions = vi.spyOn(db.core, 'transaction');
    const found = await explanations.explain(pps);
    // One per conversation and table (ledger, conversation, messages) before: a round trip each, one after another.
    expect(transactions).toHaveBeenCalledTimes(1);
    expect(new Set(found.keys())).toEqual(conversations);
    expect(found.get('conv-trip')?.title).toBe('Trip to Lyon');
    transactions.mockClear();
    await explanations.explain(pps);
    expect(transactions).not.toHaveBeenCalled();
  });

  it('reads a conversation once and keeps only the messages that explain pause points', async () => {
    const explanations = new ConversationExplanations(db);
    const pps = await db.pausePoints.where('conversationId').equals('conv-trip').toArray();
    const found = await explanations.explain(pps);
    const trip = found.get('conv-trip')!;
    expect(trip.title).toBe('Trip to Lyon');
    expect([...trip.toolCalls.keys()].sort()).toEqual(['call-ask-1', 'call-ask-2', 'call-ask-3', 'call-ask-4']);
    expect([...trip.decisions.keys()].sort()).toEqual([SCENARIO.choice, SCENARIO.form, SCENARIO.timeout, SCENARIO.abandoned].sort());
    // Prompts and replies are not kept.
    expect(trip.weight).toBe(1 + 4 + 4 + 4);

    await db.messages.clear();
    explanations.beginGeneration();
    // Nothing is missing for these pause points, so the cached reading stands.
    expect((await explanations.explain(pps)).get('conv-trip')?.toolCalls.size).toBe(4);
  });

  it('expects no decision message for a rule’s decision: it answers through the call’s result', async () => {
    const explanations = new ConversationExplanations(db);
    const pps = await db.pausePoints.where('conversationId').equals('conv-trip').toArray();
    const decided = pps.find((pp) => pp.toolCallId === 'call-ask-1')!;
    const byRule = { ...decided, id: 'pp-rule', origin: 'rule' as const, status: 'resolved' as const, resolution: 'approve', rule: { id: 'r1', effect: 'allow' as const, text: 'Allow wait_for_approval — everywhere' } };
    await explanations.explain([...pps, byRule]);

    await db.messages.clear();
    explanations.beginGeneration();
    // Read again only if something seemed missing: it would find the messages gone.
    expect((await explanations.explain([...pps, byRule])).get('conv-trip')?.toolCalls.size).toBe(4);
  });

  it('evicts the least recently used conversations beyond its weight limit, never one in use', async () => {
    const explanations = new ConversationExplanations(db, { maxWeight: 10 });
    const byConversation = async (id: string) => db.pausePoints.where('conversationId').equals(id).toArray();
    await explanations.explain(await byConversation('conv-mail'));
    await explanations.explain(await byConversation('conv-trip'));
    await db.messages.where('[conversationId+seq]').between(['conv-mail', 0], ['conv-mail', Infinity]).delete();
    // conv-mail was evicted when conv-trip came in: reading it again finds its messages gone.
    const mail = (await explanations.explain(await byConversation('conv-mail'))).get('conv-mail')!;
    expect(mail.toolCalls.size).toBe(0);
  });

  it('keeps its weight right when two overlapping calls read the same conversation', async () => {
    const explanations = new ConversationExplanations(db);
    const pps = await db.pausePoints.where('conversationId').equals('conv-trip').toArray();
    await Promise.all([explanations.explain(pps), explanations.explain(pps)]);
    expect(explanations.cachedWeight).toBe(13);
  });

  it('with withLedger, keeps the conversation’s own ledger entries, read by id range, leaving out malformed ones', async () => {
    const sent = (await db.ledger.get('conv-mail:call-send-1'))!;
    // Neighbours of the range on either side, and a conversation whose id extends this one's.
    await db.ledger.bulkPut([
      { ...sent, id: 'conv-mai:x', conversationId: 'conv-mai' },
      { ...sent, id: 'conv-mail-2:call-send-1', conversationId: 'conv-mail-2' },
      { ...sent, id: 'conv-mail;x', conversationId: 'conv-mail;x' },
      { ...sent, id: 'conv-mailbox:call-send-1', conversationId: 'conv-mailbox' },
      { id: 'conv-mail:call-broken', status: 'succeeded' } as never,
    ]);
    const explanations = new ConversationExplanations(db, { withLedger: true });
    const pps = await db.pausePoints.where('conversationId').equals('conv-mail').toArray();
    const mail = (await explanations.explain(pps)).get('conv-mail')!;
    expect([...mail.ledger.keys()].sort()).toEqual(['conv-mail:call-send-1', 'conv-mail:call-send-2']);
    // All an entry says of it; not the result text, which can be large.
    const { result: _result, v: _v, conversationId: _c, toolCallId: _t, toolName: _n, ...outcome } = sent;
    expect(mail.ledger.get('conv-mail:call-send-1')).toEqual(outcome);
    expect(explanations.cachedWeight).toBe(mail.weight);
    // Without the option no ledger is read (the audit view reads entries itself).
    const plain = (await new ConversationExplanations(db).explain(pps)).get('conv-mail')!;
    expect(plain.ledger.size).toBe(0);
  });

  it('reads a cached ledger again only when a later pause point implies it moved on, once per generation', async () => {
    const explanations = new ConversationExplanations(db, { withLedger: true });
    const pps = await db.pausePoints.where('conversationId').equals('conv-mail').toArray();
    const declined = pps.find((pp) => pp.id === SCENARIO.declined)!;
    const sent = (await db.ledger.get('conv-mail:call-send-2'))!;
    // call-send-2 not in the ledger yet when the conversation is first read, for pause points without it.
    await db.ledger.delete(sent.id);
    const early = pps.filter((pp) => pp.toolCallId !== 'call-send-2');
    const first = (await explanations.explain(early)).get('conv-mail')!;
    expect([...first.ledger.keys()]).toEqual(['conv-mail:call-send-1']);

    // A finished entry is never reopened: the cached one stands even if storage says otherwise.
    await db.ledger.update('conv-mail:call-send-1', { attempts: 7 });
    explanations.beginGeneration();
    expect((await explanations.explain(early)).get('conv-mail')?.ledger.get('conv-mail:call-send-1')?.attempts).toBe(1);

    // A declined call implies no entry: a missing one is not looked for.
    const declinedId = `conv-mail:${declined.toolCallId}`;
    await db.ledger.put({ ...sent, id: declinedId, toolCallId: declined.toolCallId });
    explanations.beginGeneration();
    expect((await explanations.explain(early)).get('conv-mail')?.ledger.has(declinedId)).toBe(false);

    // An approved call implies one: the ledger is read again, the messages are not.
    await db.ledger.put({ ...sent, status: 'started', finishedAt: null });
    await db.messages.clear();
    explanations.beginGeneration();
    const again = (await explanations.explain(pps)).get('conv-mail')!;
    expect([...again.ledger.keys()].sort()).toEqual(['conv-mail:call-send-1', 'conv-mail:call-send-2', declinedId].sort());
    expect(again.ledger.get('conv-mail:call-send-1')?.attempts).toBe(7);
    expect(again.toolCalls.size).toBe(first.toolCalls.size);
    expect(explanations.cachedWeight).toBe(first.weight + 2);
    // The object an earlier page holds is not changed under it.
    expect(first.ledger.size).toBe(1);

    // A `started` entry may have finished since, but within one generation the ledger is read once.
    expect(again.ledger.get(sent.id)?.status).toBe('started');
    await db.ledger.update(sent.id, { status: 'succeeded', finishedAt: T0 });
    expect((await explanations.explain(pps)).get('conv-mail')?.ledger.get(sent.id)?.status).toBe('started');
    explanations.beginGeneration();
    expect((await explanations.explain(pps)).get('conv-mail')?.ledger.get(sent.id)?.status).toBe('succeeded');
  });
});
