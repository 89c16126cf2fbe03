import { makeConversation, makePausePoint } from '../../engine/testing/make-records.ts';
import type { Message } from '../../engine/records/index.ts';
import type { PausepointDb } from '../../storage/db.ts';

/**
 * A conversation with everything an export carries: the person's question, an
 * answer with a gated call approved and run, its result, a second call still
 * waiting on a pending card, a decision message and a notice; running
 * elsewhere (a device of its own) with its own instructions.
 */
export async function seedConversation(db: PausepointDb, id = 'c1'): Promise<void> {
  await db.conversations.put(
    makeConversation({
      id,
      title: 'Invoices for March',
      state: { kind: 'paused', pending: 1 },
      turns: 2,
      nextSeq: 6,
      updatedAt: 9_000,
      instructions: 'Amounts in EUR.',
      ownerDevice: { id: 'device-elsewhere', name: 'Laptop' },
    }),
  );
  const base = { v: 1 as const, conversationId: id };
  const messages: Message[] = [
    { ...base, id: `${id}-m0`, seq: 0, createdAt: 2_000, role: 'user', content: 'Send the March invoice to Ada.' },
    {
      ...base,
      id: `${id}-m1`,
      seq: 1,
      createdAt: 2_100,
      role: 'assistant',
      content: 'Sending it.',
      toolCalls: [{ id: 'call_1', name: 'send_invoice', arguments: '{"to":"ada@example.com","amount":120}' }],
      turnIndex: 0,
      status: 'complete',
    },
    { ...base, id: `${id}-m2`, seq: 2, createdAt: 2_200, role: 'user', content: 'Approval approval: approve', decision: { pausePointId: `${id}-p1` } },
    { ...base, id: `${id}-m3`, seq: 3, createdAt: 2_300, role: 'tool', toolCallId: 'call_1', toolName: 'send_invoice', content: 'Sent ```120 EUR```.', outcome: 'done' },
    {
      ...base,
      id: `${id}-m4`,
      seq: 4,
      createdAt: 2_400,
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'call_2', name: 'send_invoice', arguments: '{"to":"bob@example.com","amount":80}' }],
      turnIndex: 1,
      status: 'complete',
    },
    { ...base, id: `${id}-m5`, seq: 5, createdAt: 2_500, role: 'notice', content: 'The connection dropped once.' },
  ];
  await db.messages.bulkPut(messages);
  await db.pausePoints.bulkPut([
    makePausePoint({ id: `${id}-p1`, conversationId: id, toolCallId: 'call_1', toolName: 'send_invoice', origin: 'gate', status: 'resolved', resolution: 'approve', resolvedAt: 2_150, createdAt: 2_120 }),
    makePausePoint({ id: `${id}-p2`, conversationId: id, turnIndex: 1, toolCallId: 'call_2', toolName: 'send_invoice', origin: 'gate', title: 'Send 80 EUR to Bob?', createdAt: 2_420, expiresAt: 99_000 }),
  ]);
}
