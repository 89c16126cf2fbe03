import { describe, expect, it } from 'vitest';
import { HistoryCache } from './history-cache.ts';
import type { MessageDraft, StoragePort } from './storage-port.ts';
import type { AssistantMessage } from './records/index.ts';
import { makeConversation, makeLedgerEntry, userDraft } from './testing/make-records.ts';
import { MemoryStorage } from './testing/memory-storage.ts';

function assistantDraft(conversationId: string, id: string, status: AssistantMessage['status'], content = ''): MessageDraft {
  return { v: 1, id, conversationId, createdAt: 2_000, role: 'assistant', content, toolCalls: [], turnIndex: 0, status };
}

/** Storage whose `loadStep` calls are recorded, and whose contents can be swapped for another store's. */
function observed(initial: StoragePort) {
  let inner = initial;
  const fromSeqs: number[] = [];
  const storage = new Proxy(initial, {
    get(_target, key) {
      if (key === 'loadStep') {
        return (conversationId: string, fromSeq: number) => {
          fromSeqs.push(fromSeq);
          return inner.loadStep(conversationId, fromSeq);
        };
      }
      const value: unknown = Reflect.get(inner, key);
      return typeof value === 'function' ? value.bind(inner) : value;
    },
  });
  return { storage, fromSeqs, swap: (next: StoragePort) => (inner = next) };
}

async function seeded(ids: string[] = ['c1']) {
  const memory = new MemoryStorage();
  for (const id of ids) await memory.putConversation(makeConversation({ id }));
  return memory;
}

describe('HistoryCache', () => {
  it('reads everything once, then only from the last kept message on', async () => {
    const memory = await seeded();
    await memory.appendMessages('c1', [userDraft('c1', 'm0'), userDraft('c1', 'm1'), userDraft('c1', 'm2')]);
    const { storage, fromSeqs } = observed(memory);
    const cache = new HistoryCache(storage);

    expect((await cache.load('c1')).history.map((m) => m.id)).toEqual(['m0', 'm1', 'm2']);
    await memory.appendMessages('c1', [userDraft('c1', 'm3')]);
    expect((await cache.load('c1')).history.map((m) => m.id)).toEqual(['m0', 'm1', 'm2', 'm3']);
    expect((await cache.load('c1')).history).toEqual(await memory.listMessages('c1'));
    expect(fromSeqs).toEqual([0, 2, 3]);
  });

  it('hands callsOf the whole history, the kept messages joined with those the step read, and returns the calls read', async () => {
    const memory = await seeded();
    await memory.appendMessages('c1', [userDraft('c1', 'm0'), userDraft('c1', 'm1'), userDraft('c1', 'm2')]);
    await memory.putLedgerEntry(makeLedgerEntry({ id: 'c1:call_1' }));
    const cache = new HistoryCache(memory);
    await cache.load('c1');
    await memory.appendMessages('c1', [userDraft('c1', 'm3')]);

    const seen: string[][] = [];
    const step = await cache.load('c1', (history) => {
      seen.push(history.map((m) => m.id));
      return ['call_1'];
    });
    expect(seen).toEqual([['m0', 'm1', 'm2', 'm3']]);
    expect(step.history.map((m) => m.id)).toEqual(['m0', 'm1', 'm2', 'm3']);
    expect(step.calls).toEqual({ pausePoints: [], ledger: [makeLedgerEntry({ id: 'c1:call_1' })] });
  });

  it('makes its first read through the read it is given (a write that reads the step), from the last kept message on', async () => {
    const memory = await seeded();
    await memory.appendMessages('c1', [userDraft('c1', 'm0'), userDraft('c1', 'm1')]);
    const { storage, fromSeqs } = observed(memory);
    const cache = new HistoryCache(storage);
    await cache.load('c1');

    const written: number[] = [];
    const step = await cache.load('c1', undefined, (fromSeq) => {
      written.push(fromSeq);
      return memory.appendAndLoadStep('c1', [userDraft('c1', 'm2')], undefined, undefined, fromSeq);
    });
    expect(step.history.map((m) => m.id)).toEqual(['m0', 'm1', 'm2']);
    expect(written).toEqual([1]);
    // Only the priming read went through loadStep.
    expect(fromSeqs).toEqual([0]);
  });

  it('sees what other tabs append, and reads a streaming message again until it is final', async () => {
    const memory = await seeded();
    const cache = new HistoryCache(memory);
    await memory.appendMessages('c1', [userDraft('c1', 'question')]);
    const [streaming] = await memory.appendMessages('c1', [assistantDraft('c1', 'answer', 'streaming', 'Hal')]);
    await memory.appendMessages('c1', [userDraft('c1', 'decision-from-tab-B')]);
    expect(await cache.load('c1')).toMatchObject({ history: await memory.listMessages('c1') });

    await memory.putMessage({ ...(streaming as AssistantMessage), content: 'Half an answer', status: 'interrupted' });
    await memory.appendMessages('c1', [userDraft('c1', 'tool-result-from-tab-C')]);
    const { history } = await cache.load('c1');
    expect(history).toEqual(await memory.listMessages('c1'));
    expect(history[1]).toMatchObject({ content: 'Half an answer', status: 'interrupted' });
  });

  it('returns the conversation and its pending pause points from the same read', async () => {
    const memory = await seeded();
    const cache = new HistoryCache(memory);
    const step = await cache.load('c1');
    expect(step).toEqual({ conversation: await memory.getConversation('c1'), pending: [], history: [] });
  });

  it('drops a history that is no longer the stored one (deleted, then restored from another copy under the same id)', async () => {
    const here = await seeded();
    await here.appendMessages('c1', [userDraft('c1', 'a0'), userDraft('c1', 'a1'), userDraft('c1', 'a2')]);
    const { storage, swap } = observed(here);
    const cache = new HistoryCache(storage);
    await cache.load('c1');

    // Another device's copy: the same conversation id, a history that went another way after a0.
    const restored = await seeded();
    await restored.appendMessages('c1', [userDraft('c1', 'a0'), userDraft('c1', 'b1'), userDraft('c1', 'b2'), userDraft('c1', 'b3')]);
    swap(restored);
    expect((await cache.load('c1')).history.map((m) => m.id)).toEqual(['a0', 'b1', 'b2', 'b3']);

    // An older backup of it: fewer messages than were cached.
    const older = await seeded();
    await older.appendMessages('c1', [userDraft('c1', 'a0')]);
    swap(older);
    expect((await cache.load('c1')).history.map((m) => m.id)).toEqual(['a0']);
  });

  it('forgets a conversation that no longer exists', async () => {
    const memory = await seeded();
    await memory.appendMessages('c1', [userDraft('c1', 'm0')]);
    const { storage, swap } = observed(memory);
    const cache = new HistoryCache(storage);
    await cache.load('c1');
    expect(cache.size).toBe(1);
    swap(new MemoryStorage());
    expect(await cache.load('c1')).toEqual({ conversation: undefined, pending: [], history: [] });
    expect(cache.size).toBe(0);
  });

  it('keeps the histories of the conversations used last, up to its capacity', async () => {
    const ids = ['c1', 'c2', 'c3', 'c4'];
    const memory = await seeded(ids);
    for (const id of ids) await memory.appendMessages(id, [userDraft(id, `${id}-m0`), userDraft(id, `${id}-m1`)]);
    const { storage, fromSeqs } = observed(memory);
    const cache = new HistoryCache(storage, 2);
    for (const id of ids) await cache.load(id);
    expect(cache.size).toBe(2);

    fromSeqs.length = 0;
    await cache.load('c4'); // kept: read from its last message
    await cache.load('c1'); // dropped: read whole
    expect(fromSeqs).toEqual([1, 0]);
    expect(cache.size).toBe(2);
  });
});
