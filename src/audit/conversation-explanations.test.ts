import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PausepointDb } from '../storage/db.ts';
import { useTestDb } from '../storage/testing/open-test-db.ts';
import { ConversationExplanations } from './conversation-explanations.ts';
import { SCENARIO, seedAuditDb } from './testing/seed-audit-db.ts';

let db: PausepointDb;
useTestDb((fresh) => (db = fresh));
beforeEach(async () => {
  await seedAuditDb(db);
});

describe('ConversationExplanations', () => {
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
});
