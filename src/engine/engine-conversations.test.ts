import { describe, expect, it, vi } from 'vitest';
import type { ModelRequest, ModelResult } from './model-port.ts';
import { harness, say } from './testing/harness.ts';
import { makeLedgerEntry, makePausePoint } from './testing/make-records.ts';

/** A model turn that streams a little, then waits until its run is stopped. */
const untilStopped = (request: ModelRequest) =>
  new Promise<ModelResult>((_, reject) => {
    request.onText('Thinking');
    request.signal.addEventListener('abort', () => reject(request.signal.reason));
  });

const aMoment = () => new Promise((resolve) => setTimeout(resolve, 10));

describe('renaming and deleting a conversation', () => {
  it('renames without reordering, and refuses an unknown id', async () => {
    const h = harness();
    const id = await h.engine.createConversation('Old');
    const created = await h.storage.getConversation(id);
    h.clock.advance(60_000);
    await h.engine.renameConversation(id, 'New');
    expect(await h.storage.getConversation(id)).toMatchObject({ title: 'New', updatedAt: created!.updatedAt });
    await expect(h.engine.renameConversation('nope', 'x')).rejects.toMatchObject({ name: 'StorageError', code: 'not_found' });
  });

  it('deletes a conversation with its messages, pause points and ledger entries, and nothing else', async () => {
    const h = harness([{ text: 'Hi.' }, { text: 'Hello.' }]);
    const a = await say(h, null, 'one');
    const b = await say(h, null, 'two');
    await h.storage.createPausePoint(makePausePoint({ id: 'p-a', conversationId: a }));
    await h.storage.putLedgerEntry(makeLedgerEntry({ id: `${a}:call_1`, conversationId: a }));

    await h.engine.deleteConversation(a);

    expect(await h.storage.getConversation(a)).toBeUndefined();
    expect(await h.storage.listMessages(a)).toEqual([]);
    expect(await h.storage.listPausePoints(a)).toEqual([]);
    expect(await h.storage.getLedgerEntry(`${a}:call_1`)).toBeUndefined();
    expect((await h.storage.listMessages(b)).map((m) => m.content)).toEqual(['two', 'Hello.']);
  });

  it('stops its run in this tab, without asking the other tabs', async () => {
    const requestStop = vi.fn();
    const h = harness([untilStopped], { tabs: { requestStop } });
    const { conversationId: id } = await h.engine.send(null, 'hello');
    await aMoment();

    await h.engine.deleteConversation(id);
    await h.engine.whenIdle();

    expect(h.model.requests[0]!.signal.aborted).toBe(true);
    expect(requestStop).not.toHaveBeenCalled();
    // The stopped run writes nothing back for the conversation that is gone.
    expect(await h.storage.getConversation(id)).toBeUndefined();
    expect(await h.storage.listMessages(id)).toEqual([]);
  });

  it('asks the other tabs to stop a run this tab does not hold', async () => {
    const h = harness([untilStopped]);
    const { conversationId: id } = await h.engine.send(null, 'hello');
    await aMoment();
    const asked: string[] = [];
    // Tab B's broadcast, delivered to tab A as the worker's BroadcastChannel delivers it.
    const tabB = h.openTab('tab-B', { tabs: { requestStop: (conversationId) => (asked.push(conversationId), h.engine.stop(conversationId)) } });

    await tabB.deleteConversation(id);
    await h.engine.whenIdle();

    expect(asked).toEqual([id]);
    expect(h.model.requests[0]!.signal.aborted).toBe(true);
    expect(await h.storage.getConversation(id)).toBeUndefined();
  });

  it('Stop stops the run here, or asks the other tabs when this one does not hold it', async () => {
    const requestStop = vi.fn();
    const h = harness([untilStopped], { tabs: { requestStop } });
    const { conversationId: id } = await h.engine.send(null, 'hello');
    await aMoment();
    await h.engine.stopEverywhere(id);
    await h.engine.whenIdle();
    expect(h.model.requests[0]!.signal.aborted).toBe(true);
    expect(requestStop).not.toHaveBeenCalled();

    await h.engine.stopEverywhere(id);
    expect(requestStop).toHaveBeenCalledWith(id);
  });
});
