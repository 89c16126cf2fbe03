import type { Conversation, Message } from '../../src/engine/records/index.ts';
import type { PausepointDb } from '../../src/storage/db.ts';

/** Writes `conversations` × `messages` of plain chat history; returns their size as JSON, the data a sync carries. */
export async function seedHistory(db: PausepointDb, conversations: number, messages: number): Promise<number> {
  let bytes = 0;
  const start = Date.now() - conversations * 60_000;
  for (let c = 0; c < conversations; c++) {
    const id = crypto.randomUUID();
    const at = start + c * 60_000;
    const conversation: Conversation = { v: 1, id, title: `Conversation ${c}`, createdAt: at, updatedAt: at, state: { kind: 'idle' }, turns: messages / 2, nextSeq: messages };
    const rows: Message[] = Array.from({ length: messages }, (_, seq): Message =>
      seq % 2 === 0
        ? { v: 1, id: crypto.randomUUID(), conversationId: id, seq, createdAt: at + seq, role: 'user', content: `Question ${seq} of conversation ${c}: what does the quarterly report say about revenue in the north-west region?` }
        : { v: 1, id: crypto.randomUUID(), conversationId: id, seq, createdAt: at + seq, role: 'assistant', content: `Answer ${seq}: revenue in the north-west grew by 4.2% over the quarter, mostly from renewals; new accounts were flat.`, toolCalls: [], status: 'complete', turnIndex: (seq - 1) / 2 },
    );
    bytes += JSON.stringify(conversation).length + rows.reduce((n, m) => n + JSON.stringify(m).length, 0);
    await db.transaction('rw', db.conversations, db.messages, async () => {
      await db.conversations.add(conversation);
      await db.messages.bulkAdd(rows);
    });
  }
  return bytes;
}
